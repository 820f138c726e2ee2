//! Every edit operation leaves valid IR (checked by opt-22) that reads back with the change.

mod common;

use mergefn::model::{Linkage, UnnamedAddr, UseRole, Visibility};
use mergefn::{Module, parse, write};

fn base() -> Module {
    let path = common::root().join("tests/fixtures/edit/base.ll");
    parse(std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Write, check with opt-22 when present, and read back.
fn written(m: &Module) -> (String, Module) {
    let text = write::to_string(m);
    if common::opt().is_some() {
        common::verify(&text).unwrap_or_else(|e| panic!("invalid IR:\n{e}\n{text}"));
    }
    let again = parse(text.clone()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (text, again)
}

fn function(m: &Module, name: &str) -> mergefn::model::FuncId {
    m.function_of(global(m, name))
        .unwrap_or_else(|| panic!("{name} is not a function"))
}

fn global(m: &Module, name: &str) -> mergefn::model::GlobalId {
    m.lookup(name).unwrap_or_else(|| panic!("{name} not found"))
}

#[test]
fn rename_moves_every_reference_and_keeps_the_comdat() {
    let mut m = base();
    let f = global(&m, "f");
    m.rename_global(f, b"f renamed");
    let (text, again) = written(&m);
    assert!(again.lookup("f").is_none());
    let g = global(&again, "\"f renamed\"");
    assert_eq!(
        again.globals[g].uses.len(),
        4,
        "definition, @p and two calls:\n{text}"
    );
    assert!(text.contains("comdat($f)"), "{text}");
}

#[test]
fn a_second_rename_replaces_the_first() {
    let mut m = base();
    let f = global(&m, "f");
    m.rename_global(f, b"f1");
    m.rename_global(f, b"f2");
    let (text, again) = written(&m);
    assert!(again.lookup("f").is_none() && again.lookup("f1").is_none());
    assert_eq!(again.globals[global(&again, "f2")].uses.len(), 4, "{text}");
    // The implicit comdat is spelled out once, under the name the text gave it.
    assert_eq!(text.matches("comdat($f)").count(), 1, "{text}");
    assert!(!text.contains("$f1"), "{text}");
}

#[test]
fn a_function_leaves_its_comdat() {
    let mut m = base();
    let f = function(&m, "f");
    m.leave_comdat(f);
    let (text, again) = written(&m);
    assert!(
        again.functions[function(&again, "f")]
            .extras()
            .comdat
            .is_none(),
        "{text}"
    );
    assert!(
        text.contains("define linkonce_odr i32 @f(i32 %x) {"),
        "{text}"
    );
}

#[test]
fn retarget_changes_one_use_only() {
    let mut m = base();
    let (f, k) = (global(&m, "f"), global(&m, "k"));
    let second_call = m.globals[f]
        .uses
        .iter()
        .copied()
        .filter(|&u| m.uses[u].role == UseRole::Callee)
        .nth(1)
        .unwrap();
    m.retarget_use(second_call, k);
    let (text, again) = written(&m);
    assert!(
        text.contains("%r = call i32 @f(i32 %x)") && text.contains("%s = call i32 @k(i32 %r)"),
        "{text}"
    );
    assert_eq!(again.globals[global(&again, "k")].uses.len(), 2);
}

#[test]
fn replace_body_and_delete_function() {
    let mut m = base();
    let h = function(&m, "h");
    m.replace_body(h, "{\n  ret i32 7\n}".into());
    let unused = function(&m, "unused");
    m.delete_function(unused);
    let (text, again) = written(&m);
    assert!(again.lookup("unused").is_none(), "{text}");
    let counts = mergefn::function_counts(&again);
    let h = counts.iter().find(|c| c.name == "h").unwrap();
    assert_eq!(h.instructions, 1);
    // @f lost its two callers in @h's old body: only its definition and @p remain.
    assert_eq!(m.uses_of(global(&m, "f")).count(), 2);
}

#[test]
fn add_declaration_alias_and_function() {
    let mut m = base();
    let k = function(&m, "k");
    let fn_ty = m.functions[k].fn_ty;
    let k_global = global(&m, "k");
    m.add_declaration(b"external.fn", fn_ty);
    m.add_alias(
        b"k.alias",
        Linkage::External,
        UnnamedAddr::Global,
        fn_ty,
        k_global,
    );
    m.append_entity(
        "define i32 @added() {\n  %c = call i32 @\"external.fn\"(i32 1)\n  ret i32 %c\n}",
    );
    let (_, again) = written(&m);
    for name in ["external.fn", "k.alias", "added"] {
        assert!(again.lookup(name).is_some(), "{name}");
    }
}

/// An alias takes its target's address space: a function's (the datalayout's program one
/// unless written), a variable's (0 unless written, whatever the datalayout's `G`), an
/// alias's (its aliasee's, an expression's too).
#[test]
fn added_aliases_point_into_their_targets_address_space() {
    let mut m = parse(
        "target datalayout = \"e-P2-G1\"\n\
         @u = addrspace(\"G\") global i32 0\n\
         @v = global i32 0\n\
         @w = addrspace(4) global [2 x i32] zeroinitializer\n\
         @second = alias i32, getelementptr (i8, ptr addrspace(4) @w, i64 4)\n\
         define void @f() {\n  ret void\n}\n\
         define void @g() addrspace(3) {\n  ret void\n}\n"
            .to_string(),
    )
    .unwrap();
    let i32_ty = m.variables.values().next().unwrap().ty;
    let f = function(&m, "f");
    let fn_ty = m.functions[f].fn_ty;
    for (name, target, ty) in [
        ("f.alias", "f", fn_ty),
        ("g.alias", "g", fn_ty),
        ("u.alias", "u", i32_ty),
        ("v.alias", "v", i32_ty),
        ("second.alias", "second", i32_ty),
    ] {
        let target = global(&m, target);
        m.add_alias(
            name.as_bytes(),
            Linkage::External,
            UnnamedAddr::None,
            ty,
            target,
        );
    }
    let (text, _) = written(&m);
    for line in [
        "@f.alias = alias void (), ptr addrspace(2) @f",
        "@g.alias = alias void (), ptr addrspace(3) @g",
        "@u.alias = alias i32, ptr addrspace(1) @u",
        "@v.alias = alias i32, ptr @v",
        "@second.alias = alias i32, ptr addrspace(4) @second",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn linkage_visibility_and_unnamed_addr() {
    let mut m = base();
    let (f, h, g) = (global(&m, "f"), global(&m, "h"), global(&m, "g"));
    m.set_visibility(h, Visibility::Hidden);
    m.set_unnamed_addr(h, UnnamedAddr::Global);
    m.set_linkage(h, Linkage::WeakOdr);
    m.set_linkage(f, Linkage::Internal);
    m.set_linkage(g, Linkage::Private);
    m.set_unnamed_addr(g, UnnamedAddr::Local);
    let (text, again) = written(&m);
    let link = |name: &str| again.linkable(global(&again, name)).unwrap().clone();
    assert_eq!(link("h").linkage, Linkage::WeakOdr);
    assert_eq!(link("h").visibility, Visibility::Hidden);
    assert_eq!(link("h").unnamed_addr, UnnamedAddr::Global);
    assert_eq!(link("f").linkage, Linkage::Internal);
    assert_eq!(link("g").linkage, Linkage::Private);
    assert_eq!(link("g").unnamed_addr, UnnamedAddr::Local);
    assert!(
        text.contains("define weak_odr hidden i32 @h(i32 %x) unnamed_addr {"),
        "{text}"
    );

    // Back to external: the keyword disappears again.
    m.set_linkage(h, Linkage::External);
    m.set_visibility(h, Visibility::Default);
    m.set_unnamed_addr(h, UnnamedAddr::None);
    let (text, _) = written(&m);
    assert!(text.contains("define i32 @h(i32 %x) {"), "{text}");
}

#[test]
fn an_edit_deletes_the_use_list_orders() {
    // `@g` has two uses, in `@f` and `@h`; retargeting one leaves the order listing two.
    let text = "@g = global i32 0\n@k = global i32 0\n\
                define i32 @f() {\n  %a = load i32, ptr @g\n  ret i32 %a\n}\n\
                define i32 @h() {\n  %a = load i32, ptr @g\n  ret i32 %a\n}\n\
                uselistorder ptr @g, { 1, 0 }\n";
    let mut m = parse(text.to_string()).unwrap();
    assert_eq!(write::to_string(&m), text, "unedited, the order stays");
    let g = global(&m, "g");
    // The directive names `@g` but is no use of it.
    assert_eq!(m.globals[g].uses.len(), 3);
    let in_h = m.globals[g].uses[2];
    let k = global(&m, "k");
    m.retarget_use(in_h, k);
    let (text, _) = written(&m);
    assert!(!text.contains("uselistorder"), "{text}");
}

/// Deleting functions drops their uses: the live ones stay listed, in order, while the list
/// is cleared of dropped ones once they are half of it; a rename then patches only live text.
#[test]
fn deleted_uses_leave_the_lists() {
    let mut text = String::from("declare void @sink()\n");
    for i in 0..10 {
        text.push_str(&format!(
            "define void @f{i}() {{\n  call void @sink()\n  ret void\n}}\n"
        ));
    }
    let mut m = parse(text).unwrap();
    let sink = global(&m, "sink");
    let live = |m: &Module| m.uses_of(sink).count();
    assert_eq!((live(&m), m.globals[sink].uses.len()), (11, 11));
    for i in 0..5 {
        m.delete_function(function(&m, &format!("f{i}")));
    }
    assert_eq!((live(&m), m.globals[sink].uses.len()), (6, 11));
    m.delete_function(function(&m, "f5"));
    assert_eq!((live(&m), m.globals[sink].uses.len()), (5, 5));
    let spans: Vec<u32> = m.uses_of(sink).map(|u| m.uses[u].span.start).collect();
    assert!(spans.is_sorted());
    m.rename_global(sink, b"drain");
    let (text, again) = written(&m);
    assert_eq!(text.matches("@drain").count(), 5, "{text}");
    assert_eq!(again.functions.len(), 5);
}
