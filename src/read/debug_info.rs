//! LLVM 22's grammar of specialized metadata nodes (`!DILocation(line: 3, scope: !7)`): the
//! node kinds, the fields each takes, and what each field's value must be, with LLVM's words
//! for what it expected. The parser reads a node's fields against [`fields`]
//! (`Parser::md_fields`); the words come from LLVM's own lists ([`words`]).
//!
//! The fields are LLVM 19's `LLParser` tables with LLVM 22's additions, each name and value
//! kind checked against `opt-22` (every kind offered every identifier of LLVM 22's
//! `DebugInfoMetadata.h` and the strings of its library as a field: those it did not call an
//! invalid field are here).

#[path = "debug_info_words.rs"]
pub(super) mod words;

/// What a field's value must be, as LLVM's `MD*Field` types say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FieldValue {
    /// A node, a metadata string or a constant (`MDField`); `null` too when `null`.
    Node { null: bool },
    /// A string constant (`MDStringField`); `""` too when `empty`.
    Str { empty: bool },
    /// An unsigned integer up to the bound (`MDUnsignedField`).
    Unsigned(u64),
    /// An unsigned integer up to the bound, or a node (`MDUnsignedOrMDField`).
    UnsignedOrNode(u64),
    /// A signed integer within the bounds (`MDSignedField`).
    Signed(i64, i64),
    /// A signed integer within the bounds, or a node (`MDSignedOrMDField`); `null` when `null`.
    SignedOrNode(i64, i64, bool),
    /// Any integer (`MDAPSIntField`).
    Integer,
    /// `true` or `false`.
    Bool,
    /// A word of a list, or a number up to the list's bound.
    Word(&'static Words),
    /// `DIFlag*` words and 32-bit numbers joined by `|`.
    Flags,
    /// `DISPFlag*` words and 32-bit numbers joined by `|`.
    SubprogramFlags,
    /// `{` nodes or `null`, separated by commas `}` (a generic node's operands).
    NodeList,
    /// `CSK_MD5`, `CSK_SHA1` or `CSK_SHA256`.
    Checksum,
}

/// A list of words a field may name instead of a number.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Words {
    /// The words, sorted.
    pub list: &'static [&'static str],
    /// The prefix that makes LLVM's lexer take a word as one of this list (then a word not
    /// on the list is "invalid"); `None` for lists of whole words (any other is unexpected).
    pub prefix: Option<&'static str>,
    /// The largest number the field takes instead of a word.
    pub max: u64,
    /// What LLVM says it expected, and calls a word of the prefix not on the list.
    pub what: &'static str,
}

impl Words {
    pub(super) fn contains(&self, word: &[u8]) -> bool {
        super::parser::is_listed(self.list, word)
    }
}

const TAG: FieldValue = Word(&Words {
    list: words::DW_TAG,
    prefix: Some("DW_TAG_"),
    max: 0xffff,
    what: "DWARF tag",
});
const ENCODING: FieldValue = Word(&Words {
    list: words::DW_ATE,
    prefix: Some("DW_ATE_"),
    max: 0xff,
    what: "DWARF type attribute encoding",
});
const VIRTUALITY: FieldValue = Word(&Words {
    list: words::DW_VIRTUALITY,
    prefix: Some("DW_VIRTUALITY_"),
    max: 2,
    what: "DWARF virtuality code",
});
const LANGUAGE: FieldValue = Word(&Words {
    list: words::DW_LANG,
    prefix: Some("DW_LANG_"),
    max: 0xffff,
    what: "DWARF language",
});
const SOURCE_LANGUAGE_NAME: FieldValue = Word(&Words {
    list: words::DW_LNAME,
    prefix: Some("DW_LNAME_"),
    max: u32::MAX as u64,
    what: "DWARF source language name",
});
const CALLING_CONV: FieldValue = Word(&Words {
    list: words::DW_CC,
    prefix: Some("DW_CC_"),
    max: 0xff,
    what: "DWARF calling convention",
});
const MACINFO: FieldValue = Word(&Words {
    list: &[
        "DW_MACINFO_define",
        "DW_MACINFO_end_file",
        "DW_MACINFO_start_file",
        "DW_MACINFO_undef",
        "DW_MACINFO_vendor_ext",
    ],
    prefix: Some("DW_MACINFO_"),
    max: 0xff,
    what: "DWARF macinfo type",
});
const EMISSION_KIND: FieldValue = Word(&Words {
    list: &[
        "DebugDirectivesOnly",
        "FullDebug",
        "LineTablesOnly",
        "NoDebug",
    ],
    prefix: None,
    max: 3,
    what: "emission kind",
});
const NAME_TABLE_KIND: FieldValue = Word(&Words {
    list: &["Apple", "Default", "GNU", "None"],
    prefix: None,
    max: 3,
    what: "nameTable kind",
});
const ENUM_KIND: FieldValue = Word(&Words {
    list: words::DW_APPLE_ENUM_KIND,
    prefix: Some("DW_APPLE_ENUM_KIND_"),
    max: 1,
    what: "DWARF enum kind code",
});
const FIXED_POINT_KIND: FieldValue = Word(&Words {
    list: &["Binary", "Decimal", "Rational"],
    prefix: None,
    max: 2,
    what: "fixed-point kind",
});

/// A field of a node kind.
#[derive(Clone, Copy, Debug)]
pub(super) struct Field {
    pub name: &'static str,
    pub value: FieldValue,
    /// LLVM reports a node without it ("missing required field").
    pub required: bool,
}

const fn opt(name: &'static str, value: FieldValue) -> Field {
    Field {
        name,
        value,
        required: false,
    }
}

const fn req(name: &'static str, value: FieldValue) -> Field {
    Field {
        name,
        value,
        required: true,
    }
}

use FieldValue::*;

const NODE: FieldValue = Node { null: true };
const NOT_NULL: FieldValue = Node { null: false };
const STR: FieldValue = Str { empty: true };
const LINE: FieldValue = Unsigned(u32::MAX as u64);
const COLUMN: FieldValue = Unsigned(u16::MAX as u64);
const U32: FieldValue = Unsigned(u32::MAX as u64);
const U64: FieldValue = Unsigned(u64::MAX);
const SIZE: FieldValue = UnsignedOrNode(u64::MAX);
const BOUND: FieldValue = SignedOrNode(i64::MIN, i64::MAX, true);

/// The fields of the node kind `kind` (`DILocation`, without `!`), or `None` for a kind LLVM
/// 22 does not have. `DIExpression`, `DIArgList` and `DIAssignID` take no fields: the parser
/// reads them on their own.
pub(super) fn fields(kind: &[u8]) -> Option<&'static [Field]> {
    KINDS
        .iter()
        .find(|(name, _)| name.as_bytes() == kind)
        .map(|&(_, fields)| fields)
}

/// The kinds with fields and their fields, the most frequent kinds first.
const KINDS: &[(&str, &[Field])] = &[
    ("DILocation", LOCATION),
    ("DISubprogram", SUBPROGRAM),
    ("DILocalVariable", LOCAL_VARIABLE),
    ("DIDerivedType", DERIVED_TYPE),
    ("DISubroutineType", SUBROUTINE_TYPE),
    ("DILexicalBlock", LEXICAL_BLOCK),
    ("DICompositeType", COMPOSITE_TYPE),
    ("DITemplateTypeParameter", TEMPLATE_TYPE_PARAMETER),
    ("DIGlobalVariableExpression", GLOBAL_VARIABLE_EXPRESSION),
    ("DIGlobalVariable", GLOBAL_VARIABLE),
    ("DIImportedEntity", IMPORTED_ENTITY),
    ("DITemplateValueParameter", TEMPLATE_VALUE_PARAMETER),
    ("DIFile", FILE),
    ("DISubrange", SUBRANGE),
    ("DIEnumerator", ENUMERATOR),
    ("DINamespace", NAMESPACE),
    ("DIBasicType", BASIC_TYPE),
    ("DILexicalBlockFile", LEXICAL_BLOCK_FILE),
    ("DILabel", LABEL),
    ("GenericDINode", GENERIC_NODE),
    ("DIGenericSubrange", GENERIC_SUBRANGE),
    ("DIFixedPointType", FIXED_POINT_TYPE),
    ("DIStringType", STRING_TYPE),
    ("DICompileUnit", COMPILE_UNIT),
    ("DICommonBlock", COMMON_BLOCK),
    ("DIMacro", MACRO),
    ("DIMacroFile", MACRO_FILE),
    ("DIModule", MODULE),
    ("DIObjCProperty", OBJC_PROPERTY),
    ("DISubrangeType", SUBRANGE_TYPE),
];

const LOCATION: &[Field] = &[
    opt("line", LINE),
    opt("column", COLUMN),
    req("scope", NOT_NULL),
    opt("inlinedAt", NODE),
    opt("isImplicitCode", Bool),
    opt("atomGroup", U64),
    opt("atomRank", Unsigned(u8::MAX as u64)),
];

const SUBPROGRAM: &[Field] = &[
    opt("scope", NODE),
    opt("name", STR),
    opt("linkageName", STR),
    opt("file", NODE),
    opt("line", LINE),
    opt("type", NODE),
    opt("isLocal", Bool),
    opt("isDefinition", Bool),
    opt("scopeLine", LINE),
    opt("containingType", NODE),
    opt("virtuality", VIRTUALITY),
    opt("virtualIndex", U32),
    opt("thisAdjustment", Signed(i32::MIN as i64, i32::MAX as i64)),
    opt("flags", Flags),
    opt("spFlags", SubprogramFlags),
    opt("isOptimized", Bool),
    opt("unit", NODE),
    opt("templateParams", NODE),
    opt("declaration", NODE),
    opt("retainedNodes", NODE),
    opt("thrownTypes", NODE),
    opt("annotations", NODE),
    opt("targetFuncName", STR),
    opt("keyInstructions", Bool),
];

const LOCAL_VARIABLE: &[Field] = &[
    req("scope", NOT_NULL),
    opt("name", STR),
    opt("arg", Unsigned(u16::MAX as u64)),
    opt("file", NODE),
    opt("line", LINE),
    opt("type", NODE),
    opt("flags", Flags),
    opt("align", U32),
    opt("annotations", NODE),
];

const DERIVED_TYPE: &[Field] = &[
    req("tag", TAG),
    opt("name", STR),
    opt("file", NODE),
    opt("line", LINE),
    opt("scope", NODE),
    req("baseType", NODE),
    opt("size", SIZE),
    opt("align", U32),
    opt("offset", SIZE),
    opt("flags", Flags),
    opt("extraData", NODE),
    opt("dwarfAddressSpace", U32),
    opt("annotations", NODE),
    opt("ptrAuthKey", Unsigned(7)),
    opt("ptrAuthIsAddressDiscriminated", Bool),
    opt("ptrAuthExtraDiscriminator", Unsigned(0xffff)),
    opt("ptrAuthIsaPointer", Bool),
    opt("ptrAuthAuthenticatesNullValues", Bool),
];

const SUBROUTINE_TYPE: &[Field] = &[
    opt("flags", Flags),
    opt("cc", CALLING_CONV),
    req("types", NODE),
];

const LEXICAL_BLOCK: &[Field] = &[
    req("scope", NOT_NULL),
    opt("file", NODE),
    opt("line", LINE),
    opt("column", COLUMN),
];

const COMPOSITE_TYPE: &[Field] = &[
    req("tag", TAG),
    opt("name", STR),
    opt("file", NODE),
    opt("line", LINE),
    opt("scope", NODE),
    opt("baseType", NODE),
    opt("size", SIZE),
    opt("align", U32),
    opt("offset", SIZE),
    opt("flags", Flags),
    opt("elements", NODE),
    opt("runtimeLang", LANGUAGE),
    opt("enumKind", ENUM_KIND),
    opt("vtableHolder", NODE),
    opt("templateParams", NODE),
    opt("identifier", STR),
    opt("discriminator", NODE),
    opt("dataLocation", NODE),
    opt("associated", NODE),
    opt("allocated", NODE),
    opt("rank", BOUND),
    opt("annotations", NODE),
    opt("num_extra_inhabitants", U32),
    opt("specification", NODE),
    opt("bitStride", NODE),
];

const TEMPLATE_TYPE_PARAMETER: &[Field] =
    &[opt("name", STR), req("type", NODE), opt("defaulted", Bool)];

const GLOBAL_VARIABLE_EXPRESSION: &[Field] = &[req("var", NODE), req("expr", NODE)];

const GLOBAL_VARIABLE: &[Field] = &[
    opt("name", Str { empty: false }),
    opt("scope", NODE),
    opt("linkageName", STR),
    opt("file", NODE),
    opt("line", LINE),
    opt("type", NODE),
    opt("isLocal", Bool),
    opt("isDefinition", Bool),
    opt("templateParams", NODE),
    opt("declaration", NODE),
    opt("align", U32),
    opt("annotations", NODE),
];

const IMPORTED_ENTITY: &[Field] = &[
    req("tag", TAG),
    req("scope", NODE),
    opt("entity", NODE),
    opt("file", NODE),
    opt("line", LINE),
    opt("name", STR),
    opt("elements", NODE),
];

const TEMPLATE_VALUE_PARAMETER: &[Field] = &[
    opt("tag", TAG),
    opt("name", STR),
    opt("type", NODE),
    opt("defaulted", Bool),
    req("value", NODE),
];

const FILE: &[Field] = &[
    req("filename", STR),
    req("directory", STR),
    opt("checksumkind", Checksum),
    opt("checksum", STR),
    opt("source", STR),
];

const SUBRANGE: &[Field] = &[
    opt("count", SignedOrNode(-1, i64::MAX, false)),
    opt("lowerBound", BOUND),
    opt("upperBound", BOUND),
    opt("stride", BOUND),
];

const ENUMERATOR: &[Field] = &[
    req("name", STR),
    req("value", Integer),
    opt("isUnsigned", Bool),
];

const NAMESPACE: &[Field] = &[
    req("scope", NODE),
    opt("name", STR),
    opt("exportSymbols", Bool),
];

const BASIC_TYPE: &[Field] = &[
    opt("tag", TAG),
    opt("name", STR),
    opt("size", SIZE),
    opt("align", U32),
    opt("encoding", ENCODING),
    opt("num_extra_inhabitants", U32),
    opt("dataSize", U32),
    opt("flags", Flags),
];

const LEXICAL_BLOCK_FILE: &[Field] = &[
    req("scope", NOT_NULL),
    opt("file", NODE),
    req("discriminator", U32),
];

const LABEL: &[Field] = &[
    req("scope", NOT_NULL),
    req("name", STR),
    req("file", NODE),
    req("line", LINE),
    opt("column", COLUMN),
    opt("isArtificial", Bool),
    opt("coroSuspendIdx", U64),
];

const GENERIC_NODE: &[Field] = &[
    req("tag", TAG),
    opt("header", STR),
    opt("operands", NodeList),
];

const GENERIC_SUBRANGE: &[Field] = &[
    opt("count", BOUND),
    opt("lowerBound", BOUND),
    opt("upperBound", BOUND),
    opt("stride", BOUND),
];

const FIXED_POINT_TYPE: &[Field] = &[
    opt("tag", TAG),
    opt("name", STR),
    opt("size", SIZE),
    opt("align", U32),
    opt("encoding", ENCODING),
    opt("flags", Flags),
    opt("kind", FIXED_POINT_KIND),
    opt("factor", Signed(i64::MIN, i64::MAX)),
    opt("numerator", Integer),
    opt("denominator", Integer),
];

const STRING_TYPE: &[Field] = &[
    opt("tag", TAG),
    opt("name", STR),
    opt("stringLength", NODE),
    opt("stringLengthExpression", NODE),
    opt("stringLocationExpression", NODE),
    opt("size", SIZE),
    opt("align", U32),
    opt("encoding", ENCODING),
];

const COMPILE_UNIT: &[Field] = &[
    opt("language", LANGUAGE),
    opt("sourceLanguageName", SOURCE_LANGUAGE_NAME),
    opt("sourceLanguageVersion", U32),
    req("file", NOT_NULL),
    opt("producer", STR),
    opt("isOptimized", Bool),
    opt("flags", STR),
    opt("runtimeVersion", U32),
    opt("splitDebugFilename", STR),
    opt("emissionKind", EMISSION_KIND),
    opt("enums", NODE),
    opt("retainedTypes", NODE),
    opt("globals", NODE),
    opt("imports", NODE),
    opt("macros", NODE),
    opt("dwoId", U64),
    opt("splitDebugInlining", Bool),
    opt("debugInfoForProfiling", Bool),
    opt("nameTableKind", NAME_TABLE_KIND),
    opt("rangesBaseAddress", Bool),
    opt("sysroot", STR),
    opt("sdk", STR),
];

const COMMON_BLOCK: &[Field] = &[
    req("scope", NODE),
    opt("declaration", NODE),
    opt("name", STR),
    opt("file", NODE),
    opt("line", LINE),
];

const MACRO: &[Field] = &[
    req("type", MACINFO),
    opt("line", LINE),
    req("name", STR),
    opt("value", STR),
];

const MACRO_FILE: &[Field] = &[
    opt("type", MACINFO),
    opt("line", LINE),
    req("file", NODE),
    opt("nodes", NODE),
];

const MODULE: &[Field] = &[
    req("scope", NODE),
    req("name", STR),
    opt("configMacros", STR),
    opt("includePath", STR),
    opt("apinotes", STR),
    opt("file", NODE),
    opt("line", LINE),
    opt("isDecl", Bool),
];

const OBJC_PROPERTY: &[Field] = &[
    opt("name", STR),
    opt("file", NODE),
    opt("line", LINE),
    opt("setter", STR),
    opt("getter", STR),
    opt("attributes", U32),
    opt("type", NODE),
];

const SUBRANGE_TYPE: &[Field] = &[
    opt("name", STR),
    opt("file", NODE),
    opt("line", LINE),
    opt("scope", NODE),
    opt("size", SIZE),
    opt("align", U32),
    opt("flags", Flags),
    opt("baseType", NODE),
    opt("lowerBound", BOUND),
    opt("upperBound", BOUND),
    opt("stride", BOUND),
    opt("bias", BOUND),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted_for_binary_search() {
        let lists = KINDS.iter().flat_map(|(_, fields)| fields.iter());
        for w in lists.filter_map(|f| match f.value {
            FieldValue::Word(w) => Some(w),
            _ => None,
        }) {
            assert!(w.list.is_sorted(), "{w:?}");
            assert!(
                w.list
                    .iter()
                    .all(|x| w.prefix.is_none_or(|p| x.starts_with(p)))
            );
        }
        assert!(words::DW_OP.is_sorted() && words::DI_FLAG.is_sorted());
        assert!(words::DISP_FLAG.is_sorted());
    }

    #[test]
    fn every_kind_fits_a_bitmask_of_its_fields() {
        for (kind, fields) in KINDS {
            assert!(fields.len() <= 64, "{kind}");
        }
    }
}
