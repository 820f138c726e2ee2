//! What LLVM 22's verifier asks of the calls of some intrinsics beyond their signatures
//! (`Verifier::visitIntrinsicCall` and the checks it calls): their operands' values, types
//! and shapes (`llvm.bswap`, the matrix intrinsics, `llvm.prefetch`...), what they name (an
//! alloca, a function, a statepoint's or a setup's token), the call itself (a guard invoked, a
//! deoptimization not returned), and across the module the frames `llvm.localescape` escapes
//! and `llvm.localrecover` reads ([`frame_recoveries_hold`]); some targets' own too (AArch64's
//! prefetches, AMDGPU's, NVPTX's). [`Rule`] lists them all.
//! Checked once a body is read, from its uses of globals, as the metadata its calls name
//! (`verify_metadata`).

use super::intrinsics;
use super::parser::NOT_YET_DEFINED;
use super::verify_metadata::{
    FP_PREDICATES, IntrinsicCall, ROUNDING_MODES, Refused, call_arguments, metadata_argument,
    string_operand,
};
use crate::model::{
    Attr, AttrKind, BlockId, Body, Const, FuncId, GlobalKind, GlobalUse, InstId, IntValue, Item,
    Layout, LocalDef, LocalId, MdBody, MdRef, Module, Opcode, Span, Type, TypeId, Value, ValueKind,
    int_value,
};
use cranelift_entity::EntityRef;

/// The first of `calls`, the calls of intrinsics in `f`'s `body`, that LLVM's verifier refuses
/// by one of these rules: the callee's span and LLVM's message. `uses` are the body's own uses
/// of globals. What the module's check of frame recoveries needs goes to `frames`.
pub(super) fn intrinsic_calls_hold(
    m: &Module,
    f: FuncId,
    body: &Body,
    uses: &[GlobalUse],
    calls: &[IntrinsicCall],
    far_allocas: &mut Vec<LocalId>,
    frames: &mut FrameUses,
) -> Result<(), Refused> {
    for &(callee, ref name, call) in calls {
        let Some(rule) = rule_of(name) else {
            continue;
        };
        let call = Call {
            m,
            body,
            uses,
            call,
        };
        let refused = match rule {
            Rule::Bswap => call.bswap_refused(),
            Rule::ThreeWayCompare => call.three_way_compare_refused(),
            Rule::GetVectorLength => call.vector_length_refused(),
            Rule::ThreadLocalAddress => call.thread_local_address_refused(),
            Rule::FptruncRound => call.fptrunc_round_refused(),
            Rule::Lifetime => call.lifetime_refused(far_allocas),
            Rule::RelocNone => call.reloc_none_refused(),
            Rule::Guard => call.guard_refused(),
            Rule::Deoptimize => call.deoptimize_refused(f),
            Rule::DynamicAreaOffset => call.dynamic_area_offset_refused(),
            Rule::VectorInsert => call.vector_insert_refused(),
            Rule::VectorExtract => call.vector_extract_refused(),
            Rule::Splice(form) => call.splice_refused(form, f),
            Rule::VpCast(cast) => call.vp_cast_refused(cast),
            Rule::VpCompare { float } => call.vp_compare_refused(float),
            Rule::MemsetPattern => call.memset_pattern_refused(),
            Rule::GcRelocate => call.gc_relocate_refused(calls),
            Rule::Aarch64Prefetch => call.below_refused(&[
                (
                    1,
                    2,
                    "write argument to llvm.aarch64.prefetch must be 0 or 1",
                ),
                (2, 4, "target argument to llvm.aarch64.prefetch must be 0-3"),
                (
                    3,
                    2,
                    "stream argument to llvm.aarch64.prefetch must be 0 or 1",
                ),
                (
                    4,
                    2,
                    "isdata argument to llvm.aarch64.prefetch must be 0 or 1",
                ),
            ]),
            Rule::Aarch64RangePrefetch => call.below_refused(&[
                (
                    1,
                    2,
                    "write argument to llvm.aarch64.range.prefetch must be 0 or 1",
                ),
                (
                    2,
                    2,
                    "stream argument to llvm.aarch64.range.prefetch must be 0 or 1",
                ),
            ]),
            Rule::InitExecFromInput => call.exec_input_refused(f),
            Rule::PrefetchData => call
                .pointer_space(0)
                .is_some_and(|space| !matches!(space, 0 | 1 | 4 | 10..))
                .then_some("llvm.amdgcn.s.prefetch.data only supports global or constant memory"),
            Rule::CooperativeAtomic => call.cooperative_atomic_refused(),
            Rule::MatrixFormats(form) => call.matrix_formats_refused(form),
            Rule::Prefetch => call.below_refused(&[
                (1, 2, "rw argument to llvm.prefetch must be 0-1"),
                (2, 4, "locality argument to llvm.prefetch must be 0-3"),
                (3, 2, "cache type argument to llvm.prefetch must be 0-1"),
            ]),
            // A test mask of LLVM's ten classes (`fcAllFlags`).
            Rule::IsFpClass => call.below_refused(&[(
                1,
                1 << 10,
                "unsupported bits for llvm.is.fpclass test mask",
            )]),
            Rule::VpIsFpClass => call.below_refused(&[(
                1,
                1 << 10,
                "unsupported bits for llvm.vp.is.fpclass test mask",
            )]),
            Rule::FixedPoint { signed } => call.fixed_point_refused(signed),
            Rule::InvariantStart => call.invariant_start_refused(),
            Rule::StepVector => call.step_vector_refused(),
            Rule::ActiveLaneMask => call.active_lane_mask_refused(),
            Rule::Matrix(form) => call.matrix_refused(form),
            Rule::ElementAtomic { transfer } => call.element_atomic_refused(transfer),
            Rule::SetMaxNReg => call
                .integer_argument(0)
                .is_some_and(|(count, _)| count % 8 != 0)
                .then_some("reg_count argument to nvvm.setmaxnreg must be in multiples of 8"),
            Rule::Statepoint => call.statepoint_refused(),
            Rule::GcResult => call.gc_result_refused(f, calls),
            Rule::PreallocatedSetup => call.preallocated_setup_refused(calls),
            Rule::PreallocatedArg => call.preallocated_arg_refused(calls),
            Rule::PreallocatedTeardown => call.preallocated_token_refused(
                calls,
                "llvm.call.preallocated.teardown token argument must be a \
                 llvm.call.preallocated.setup",
            ),
            Rule::RoundToInt => call.round_to_int_refused(),
            Rule::GcRoot => call.gc_root_refused(),
            Rule::InitTrampoline => call.init_trampoline_refused(),
            Rule::StackProtector => call
                .alloca_argument(1)
                .is_some_and(|alloca| alloca.is_none())
                .then_some("llvm.stackprotector parameter #2 must resolve to an alloca."),
            Rule::LocalEscape => call.local_escape_refused(frames),
            Rule::LocalRecover => call.local_recover_refused(frames, callee),
            Rule::MaskedAccess { alignment_at, zero } => {
                call.old_masked_alignment_refused(callee, alignment_at, zero)
            }
        };
        if let Some(message) = refused {
            // LLVM names the intrinsic in these.
            return Err(match rule {
                Rule::RoundToInt => (
                    callee,
                    format!("{}: {message}", String::from_utf8_lossy(name)).into(),
                ),
                _ => (callee, message.into()),
            });
        }
    }
    Ok(())
}

/// The intrinsics checked here.
#[derive(Clone, Copy)]
enum Rule {
    Bswap,
    ThreeWayCompare,
    GetVectorLength,
    ThreadLocalAddress,
    FptruncRound,
    Lifetime,
    RelocNone,
    Guard,
    Deoptimize,
    DynamicAreaOffset,
    VectorInsert,
    VectorExtract,
    Splice(Splice),
    VpCast(VpCast),
    VpCompare {
        float: bool,
    },
    MemsetPattern,
    GcRelocate,
    Aarch64Prefetch,
    Aarch64RangePrefetch,
    /// AMDGPU's `llvm.amdgcn.init.exec.from.input`: of an `inreg` parameter.
    InitExecFromInput,
    /// AMDGPU's `llvm.amdgcn.s.prefetch.data`: of flat, global or constant memory
    /// (`AMDGPU::isFlatGlobalAddrSpace`: 0, 1, 4, or above the last AMDGPU names, 9).
    PrefetchData,
    /// AMDGPU's cooperative atomic loads and stores: of a flat or global pointer, and a
    /// last argument naming a node of one string.
    CooperativeAtomic,
    /// AMDGPU's scaled matrix multiplications of formats `f8f6f4`.
    MatrixFormats(MatrixFormats),
    LocalEscape,
    LocalRecover,
    /// `llvm.masked.load`, `.store`, `.gather`, `.scatter`: where the alignment was in their
    /// form before LLVM 22, and whether zero may be.
    MaskedAccess {
        alignment_at: usize,
        zero: bool,
    },
    Prefetch,
    IsFpClass,
    VpIsFpClass,
    /// `llvm.[us]{mul,div}.fix[.sat]`: the scale below the operands' width (up to it, unsigned).
    FixedPoint {
        signed: bool,
    },
    InvariantStart,
    StepVector,
    ActiveLaneMask,
    Matrix(Matrix),
    /// The element-wise atomic `memcpy`, `memmove` (transfers, with a source) and `memset`.
    ElementAtomic {
        transfer: bool,
    },
    /// NVPTX's `setmaxnreg`: a register count in multiples of 8.
    SetMaxNReg,
    /// `llvm.lrint`, `llvm.llrint`, `llvm.lround`, `llvm.llround`.
    RoundToInt,
    Statepoint,
    GcResult,
    PreallocatedSetup,
    PreallocatedArg,
    PreallocatedTeardown,
    GcRoot,
    InitTrampoline,
    StackProtector,
}

/// The matrix intrinsics, by where their shapes are.
#[derive(Clone, Copy)]
enum Matrix {
    Multiply,
    Transpose,
    ColumnMajorLoad,
    ColumnMajorStore,
}

/// What a body's calls of `llvm.localescape` and `llvm.localrecover` leave to the module's
/// check, which LLVM's verifier makes once every function is visited
/// (`verifyFrameRecoverIndices`): how many objects the body escapes, and each recovery in
/// order: the function whose frame it reads, its index plus one, where it is called.
#[derive(Debug, Default)]
pub(super) struct FrameUses {
    pub escaped: Option<u32>,
    pub recovered: Vec<(FuncId, u64, Span)>,
}

impl FrameUses {
    pub fn is_empty(&self) -> bool {
        self.escaped.is_none() && self.recovered.is_empty()
    }
}

/// LLVM's check of every recovery of a frame, in the order its verifier visits them
/// (function order, then instruction order): the index a function's frame is recovered at is
/// below the number of objects it escapes (none, without `llvm.localescape`). The largest
/// index is kept as LLVM keeps it, an `unsigned` (an index of 2^32 - 1 wraps to 0). Where
/// the largest recovery of the first function that fails is called, if one does.
pub(super) fn frame_recoveries_hold<'a>(
    bodies: impl Iterator<Item = (FuncId, &'a FrameUses)>,
) -> Result<(), Span> {
    /// A function's frame: the objects it escapes, the largest recovery and its call.
    struct Frame {
        function: FuncId,
        escaped: u32,
        recovered: u32,
        at: Option<Span>,
    }
    fn frame_of(frames: &mut Vec<Frame>, function: FuncId) -> &mut Frame {
        let i = match frames.iter().position(|frame| frame.function == function) {
            Some(i) => i,
            None => {
                frames.push(Frame {
                    function,
                    escaped: 0,
                    recovered: 0,
                    at: None,
                });
                frames.len() - 1
            }
        };
        &mut frames[i]
    }
    // By first appearance, as LLVM keeps them (few functions escape a frame).
    let mut frames: Vec<Frame> = Vec::new();
    for (f, uses) in bodies {
        for &(parent, index, at) in &uses.recovered {
            let frame = frame_of(&mut frames, parent);
            let largest = u64::from(frame.recovered).max(index) as u32;
            if largest != frame.recovered {
                frame.at = Some(at);
            }
            frame.recovered = largest;
        }
        if let Some(escaped) = uses.escaped {
            frame_of(&mut frames, f).escaped = escaped;
        }
    }
    match frames.iter().find(|frame| frame.recovered > frame.escaped) {
        Some(&Frame { at: Some(at), .. }) => Err(at),
        _ => Ok(()),
    }
}

/// Where an AMDGPU matrix multiplication of formats `f8f6f4` takes its two format numbers
/// and the vectors of `i32` each shapes, and LLVM's words for them.
#[derive(Clone, Copy)]
struct MatrixFormats {
    /// The arguments: each format and its vector.
    formats: [(usize, usize); 2],
    /// The lengths a vector may have, shortest first; a format takes the longest for 0 and
    /// 1, the middle one for 2 and 3, the shortest for 4.
    lengths: [u64; 3],
    format_message: &'static str,
    vector_messages: [&'static str; 2],
}

/// `llvm.amdgcn.mfma.scale.f32.*.f8f6f4`: formats `cbsz` and `blgp` after the two vectors.
const MFMA_SCALE: MatrixFormats = MatrixFormats {
    formats: [(3, 0), (4, 1)],
    lengths: [4, 6, 8],
    format_message: "invalid value for cbsz format",
    vector_messages: [
        "operand 0 must be 4, 6 or 8 element i32 vector",
        "operand 1 must be 4, 6 or 8 element i32 vector",
    ],
};

/// `llvm.amdgcn.wmma.*f32.16x16x128.f8f6f4`: each format before its vector.
const WMMA: MatrixFormats = MatrixFormats {
    formats: [(0, 1), (2, 3)],
    lengths: [8, 12, 16],
    format_message: "invalid value for matrix format",
    vector_messages: [
        "operand 1 must be 8, 12 or 16 element i32 vector",
        "operand 3 must be 8, 12 or 16 element i32 vector",
    ],
};

/// A vector-predicated cast (`VPCastIntrinsic`), by what LLVM's verifier asks of its element
/// types.
#[derive(Clone, Copy)]
enum VpCast {
    /// `llvm.vp.trunc`: integers, narrower.
    Trunc,
    /// `llvm.vp.zext`, `llvm.vp.sext`: integers, wider.
    Extend,
    /// `llvm.vp.fptoui`, `llvm.vp.fptosi`, `llvm.vp.lrint`, `llvm.vp.llrint`: floating point
    /// to integer.
    FloatToInt,
    /// `llvm.vp.uitofp`, `llvm.vp.sitofp`: integer to floating point.
    IntToFloat,
    /// `llvm.vp.fptrunc`: floating point, narrower.
    FloatTrunc,
    /// `llvm.vp.fpext`: floating point, wider.
    FloatExtend,
    /// `llvm.vp.ptrtoint`: pointer to integer.
    PtrToInt,
    /// `llvm.vp.inttoptr`: integer to pointer.
    IntToPtr,
}

/// Which vector splice a call is: LLVM 22's two, or the one before them, which its reader
/// upgrades to the first for an offset of 0 or more, else to the second with the offset's
/// magnitude (`upgradeVectorSplice`); or the vector-predicated one, whose signed offset counts
/// from the end when negative.
#[derive(Clone, Copy)]
enum Splice {
    Left,
    Right,
    Signed,
    Predicated,
}

/// Each checked intrinsic's name (before any type suffix) and its rule.
const RULES: &[(&[u8], Rule)] = &[
    (b"llvm.bswap", Rule::Bswap),
    (b"llvm.localescape", Rule::LocalEscape),
    (b"llvm.localrecover", Rule::LocalRecover),
    (
        b"llvm.masked.load",
        Rule::MaskedAccess {
            alignment_at: 1,
            zero: false,
        },
    ),
    (
        b"llvm.masked.gather",
        Rule::MaskedAccess {
            alignment_at: 1,
            zero: true,
        },
    ),
    (
        b"llvm.masked.store",
        Rule::MaskedAccess {
            alignment_at: 2,
            zero: false,
        },
    ),
    (
        b"llvm.masked.scatter",
        Rule::MaskedAccess {
            alignment_at: 2,
            zero: true,
        },
    ),
    (b"llvm.prefetch", Rule::Prefetch),
    (b"llvm.is.fpclass", Rule::IsFpClass),
    (b"llvm.vp.is.fpclass", Rule::VpIsFpClass),
    (b"llvm.smul.fix", Rule::FixedPoint { signed: true }),
    (b"llvm.smul.fix.sat", Rule::FixedPoint { signed: true }),
    (b"llvm.sdiv.fix", Rule::FixedPoint { signed: true }),
    (b"llvm.sdiv.fix.sat", Rule::FixedPoint { signed: true }),
    (b"llvm.umul.fix", Rule::FixedPoint { signed: false }),
    (b"llvm.umul.fix.sat", Rule::FixedPoint { signed: false }),
    (b"llvm.udiv.fix", Rule::FixedPoint { signed: false }),
    (b"llvm.udiv.fix.sat", Rule::FixedPoint { signed: false }),
    (b"llvm.invariant.start", Rule::InvariantStart),
    (b"llvm.stepvector", Rule::StepVector),
    (b"llvm.get.active.lane.mask", Rule::ActiveLaneMask),
    (b"llvm.matrix.multiply", Rule::Matrix(Matrix::Multiply)),
    (b"llvm.matrix.transpose", Rule::Matrix(Matrix::Transpose)),
    (
        b"llvm.matrix.column.major.load",
        Rule::Matrix(Matrix::ColumnMajorLoad),
    ),
    (
        b"llvm.matrix.column.major.store",
        Rule::Matrix(Matrix::ColumnMajorStore),
    ),
    (
        b"llvm.memcpy.element.unordered.atomic",
        Rule::ElementAtomic { transfer: true },
    ),
    (
        b"llvm.memmove.element.unordered.atomic",
        Rule::ElementAtomic { transfer: true },
    ),
    (
        b"llvm.memset.element.unordered.atomic",
        Rule::ElementAtomic { transfer: false },
    ),
    (b"llvm.experimental.gc.statepoint", Rule::Statepoint),
    (b"llvm.experimental.gc.result", Rule::GcResult),
    (b"llvm.call.preallocated.setup", Rule::PreallocatedSetup),
    (b"llvm.call.preallocated.arg", Rule::PreallocatedArg),
    (
        b"llvm.call.preallocated.teardown",
        Rule::PreallocatedTeardown,
    ),
    (b"llvm.lrint", Rule::RoundToInt),
    (b"llvm.llrint", Rule::RoundToInt),
    (b"llvm.lround", Rule::RoundToInt),
    (b"llvm.llround", Rule::RoundToInt),
    (b"llvm.gcroot", Rule::GcRoot),
    (b"llvm.init.trampoline", Rule::InitTrampoline),
    (b"llvm.stackprotector", Rule::StackProtector),
    (
        b"llvm.nvvm.setmaxnreg.inc.sync.aligned.u32",
        Rule::SetMaxNReg,
    ),
    (
        b"llvm.nvvm.setmaxnreg.dec.sync.aligned.u32",
        Rule::SetMaxNReg,
    ),
    (b"llvm.scmp", Rule::ThreeWayCompare),
    (b"llvm.ucmp", Rule::ThreeWayCompare),
    (
        b"llvm.experimental.get.vector.length",
        Rule::GetVectorLength,
    ),
    (b"llvm.threadlocal.address", Rule::ThreadLocalAddress),
    (b"llvm.fptrunc.round", Rule::FptruncRound),
    (b"llvm.lifetime.start", Rule::Lifetime),
    (b"llvm.lifetime.end", Rule::Lifetime),
    (b"llvm.reloc.none", Rule::RelocNone),
    (b"llvm.experimental.guard", Rule::Guard),
    (b"llvm.experimental.deoptimize", Rule::Deoptimize),
    (b"llvm.get.dynamic.area.offset", Rule::DynamicAreaOffset),
    (b"llvm.vector.insert", Rule::VectorInsert),
    (b"llvm.vector.extract", Rule::VectorExtract),
    // Before `llvm.vector.splice`, which names the old one and prefixes these.
    (b"llvm.vector.splice.left", Rule::Splice(Splice::Left)),
    (b"llvm.vector.splice.right", Rule::Splice(Splice::Right)),
    (b"llvm.vector.splice", Rule::Splice(Splice::Signed)),
    (
        b"llvm.experimental.vector.splice",
        Rule::Splice(Splice::Signed),
    ),
    (
        b"llvm.experimental.vp.splice",
        Rule::Splice(Splice::Predicated),
    ),
    (b"llvm.vp.trunc", Rule::VpCast(VpCast::Trunc)),
    (b"llvm.vp.zext", Rule::VpCast(VpCast::Extend)),
    (b"llvm.vp.sext", Rule::VpCast(VpCast::Extend)),
    (b"llvm.vp.fptoui", Rule::VpCast(VpCast::FloatToInt)),
    (b"llvm.vp.fptosi", Rule::VpCast(VpCast::FloatToInt)),
    (b"llvm.vp.lrint", Rule::VpCast(VpCast::FloatToInt)),
    (b"llvm.vp.llrint", Rule::VpCast(VpCast::FloatToInt)),
    (b"llvm.vp.uitofp", Rule::VpCast(VpCast::IntToFloat)),
    (b"llvm.vp.sitofp", Rule::VpCast(VpCast::IntToFloat)),
    (b"llvm.vp.fptrunc", Rule::VpCast(VpCast::FloatTrunc)),
    (b"llvm.vp.fpext", Rule::VpCast(VpCast::FloatExtend)),
    (b"llvm.vp.ptrtoint", Rule::VpCast(VpCast::PtrToInt)),
    (b"llvm.vp.inttoptr", Rule::VpCast(VpCast::IntToPtr)),
    (b"llvm.experimental.memset.pattern", Rule::MemsetPattern),
    (b"llvm.experimental.gc.relocate", Rule::GcRelocate),
    (b"llvm.vp.fcmp", Rule::VpCompare { float: true }),
    (b"llvm.vp.icmp", Rule::VpCompare { float: false }),
    (b"llvm.aarch64.prefetch", Rule::Aarch64Prefetch),
    (b"llvm.aarch64.range.prefetch", Rule::Aarch64RangePrefetch),
    (b"llvm.amdgcn.init.exec.from.input", Rule::InitExecFromInput),
    (b"llvm.amdgcn.s.prefetch.data", Rule::PrefetchData),
    (
        b"llvm.amdgcn.cooperative.atomic.load.32x4B",
        Rule::CooperativeAtomic,
    ),
    (
        b"llvm.amdgcn.cooperative.atomic.load.16x8B",
        Rule::CooperativeAtomic,
    ),
    (
        b"llvm.amdgcn.cooperative.atomic.load.8x16B",
        Rule::CooperativeAtomic,
    ),
    (
        b"llvm.amdgcn.cooperative.atomic.store.32x4B",
        Rule::CooperativeAtomic,
    ),
    (
        b"llvm.amdgcn.cooperative.atomic.store.16x8B",
        Rule::CooperativeAtomic,
    ),
    (
        b"llvm.amdgcn.cooperative.atomic.store.8x16B",
        Rule::CooperativeAtomic,
    ),
    (
        b"llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4",
        Rule::MatrixFormats(MFMA_SCALE),
    ),
    (
        b"llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4",
        Rule::MatrixFormats(MFMA_SCALE),
    ),
    (
        b"llvm.amdgcn.wmma.f32.16x16x128.f8f6f4",
        Rule::MatrixFormats(WMMA),
    ),
    (
        b"llvm.amdgcn.wmma.scale.f32.16x16x128.f8f6f4",
        Rule::MatrixFormats(WMMA),
    ),
    (
        b"llvm.amdgcn.wmma.scale16.f32.16x16x128.f8f6f4",
        Rule::MatrixFormats(WMMA),
    ),
];

/// The rule for the intrinsic `name` (`llvm.` and the rest, with its type suffixes).
fn rule_of(name: &[u8]) -> Option<Rule> {
    // Every call of an intrinsic asks: a rule whose name differs in its first letter after
    // `llvm.` is passed over at one byte's cost.
    let first = *name.get(5)?;
    RULES
        .iter()
        .find(|(base, _)| base[5] == first && intrinsics::is_named(name, base))
        .map(|&(_, rule)| rule)
}

/// A call being checked.
struct Call<'a> {
    m: &'a Module,
    body: &'a Body,
    uses: &'a [GlobalUse],
    call: InstId,
}

impl<'a> Call<'a> {
    fn argument(&self, index: usize) -> Option<(TypeId, Value)> {
        call_arguments(self.body, self.call).nth(index)
    }

    /// `ty` with named types followed, and the number of elements (and whether scalable) when
    /// it is a vector, with the type of the elements.
    fn shape(&self, ty: TypeId) -> (&'a Type, Option<(bool, u64)>) {
        let (m, body) = (self.m, self.body);
        match *body.ty(m, body.resolve_ty(m, ty)) {
            Type::Vector {
                scalable,
                len,
                elem,
            } => (body.ty(m, elem), Some((scalable, len))),
            ref scalar => (scalar, None),
        }
    }

    fn scalar_bits(&self, ty: TypeId) -> Option<u32> {
        match self.shape(ty).0 {
            Type::Int(bits) => Some(*bits),
            _ => None,
        }
    }

    fn constant(&self, v: Value) -> Option<&'a Const> {
        match v.kind() {
            ValueKind::Const(c) => Some(self.body.constant(self.m, c)),
            _ => None,
        }
    }

    /// Argument `index` when it is an integer constant of at most 64 bits: its bits and width.
    fn integer_argument(&self, index: usize) -> Option<(u64, u32)> {
        let (ty, v) = self.argument(index)?;
        match *self.constant(v)? {
            Const::Int(span, width) => match int_value(self.m.bytes(span), width)? {
                IntValue::Bits(bits) if width <= 64 => Some((bits as u64, width)),
                _ => None,
            },
            // `i32 zeroinitializer` is LLVM's integer 0.
            Const::Zero => match self.shape(ty) {
                (&Type::Int(width), None) if width <= 64 => Some((0, width)),
                _ => None,
            },
            _ => None,
        }
    }

    /// What LLVM's verifier refuses of inserting or extracting a vector `part` at `index` (its
    /// `getZExtValue` taken as an `unsigned`, as there) in or from a vector `whole`.
    fn subvector_refused(
        &self,
        whole: TypeId,
        part: TypeId,
        index: usize,
        messages: [&'static str; 3],
    ) -> Option<&'static str> {
        let [element_types, multiple, overrun] = messages;
        let (index, _) = self.integer_argument(index)?;
        let index = u64::from(index as u32);
        let (
            (whole_element, Some((whole_scalable, whole_len))),
            (part_element, Some((part_scalable, part_len))),
        ) = (self.shape(whole), self.shape(part))
        else {
            return None;
        };
        if whole_element != part_element {
            Some(element_types)
        } else if part_len == 0 || index % part_len != 0 {
            Some(multiple)
        } else if whole_scalable == part_scalable
            && !(index < whole_len && index + part_len <= whole_len)
        {
            Some(overrun)
        } else {
            None
        }
    }

    fn vector_insert_refused(&self) -> Option<&'static str> {
        let ((whole, _), (part, _)) = (self.argument(0)?, self.argument(1)?);
        self.subvector_refused(
            whole,
            part,
            2,
            [
                "vector_insert parameters must have the same element type.",
                "vector_insert index must be a constant multiple of the subvector's known minimum \
                 vector length.",
                "subvector operand of vector_insert would overrun the vector being inserted into.",
            ],
        )
    }

    fn vector_extract_refused(&self) -> Option<&'static str> {
        let (whole, _) = self.argument(0)?;
        let part = self.body.insts[self.call].ty;
        self.subvector_refused(
            whole,
            part,
            1,
            [
                "vector_extract result must have the same element type as the input vector.",
                "vector_extract index must be a constant multiple of the result type's known \
                 minimum vector length.",
                "vector_extract would overrun.",
            ],
        )
    }

    /// A splice's offset within the vectors' known minimum length: the elements of a scalable
    /// vector (of any, for the predicated splice) times the minimum of `f`'s `vscale_range`,
    /// when it has one.
    fn splice_refused(&self, form: Splice, f: FuncId) -> Option<&'static str> {
        let (bits, width) = self.integer_argument(2)?;
        let signed = ((bits << (64 - width.max(1))) as i64) >> (64 - width.max(1));
        let (form, offset) = match form {
            Splice::Signed => {
                // Upgraded to an `i32` of the offset's magnitude.
                let magnitude = u64::from(signed.unsigned_abs() as u32);
                match signed >= 0 {
                    true => (Splice::Left, magnitude),
                    false => (Splice::Right, magnitude),
                }
            }
            Splice::Predicated => (form, signed.unsigned_abs()),
            form => (form, bits),
        };
        let (_, Some((scalable, len))) = self.shape(self.body.insts[self.call].ty) else {
            return None;
        };
        // LLVM scales the predicated splice's length whether the vectors are scalable or not.
        let scale = match scalable || matches!(form, Splice::Predicated) {
            true => super::verify_attributes::vscale_range_min(self.m, f).unwrap_or(1),
            false => 1,
        };
        let known_min = len.saturating_mul(scale);
        match form {
            Splice::Left if offset >= known_min => Some(
                "The splice index exceeds the range [0, VL-1] where VL is the known minimum \
                 number of elements in the vector. For scalable vectors the minimum number of \
                 elements is determined from vscale_range.",
            ),
            Splice::Predicated if offset > known_min || (signed >= 0 && offset == known_min) => {
                Some(
                    "The splice index exceeds the range [-VL, VL-1] where VL is the known minimum \
                     number of elements in the vector. For scalable vectors the minimum number \
                     of elements is determined from vscale_range.",
                )
            }
            Splice::Right if offset > known_min => Some(
                "The splice index exceeds the range [0, VL] where VL is the known minimum number \
                 of elements in the vector. For scalable vectors the minimum number of elements \
                 is determined from vscale_range.",
            ),
            _ => None,
        }
    }

    /// A vector-predicated cast: as many lanes in as out, of the element types and widths
    /// its kind takes (`Verifier::visitVPIntrinsic`).
    fn vp_cast_refused(&self, cast: VpCast) -> Option<&'static str> {
        let (from, _) = self.argument(0)?;
        let ((to_element, to_lanes), (from_element, from_lanes)) =
            (self.shape(self.body.insts[self.call].ty), self.shape(from));
        if to_lanes != from_lanes {
            return Some(
                "VP cast intrinsic first argument and result vector lengths must be equal",
            );
        }
        let int = |t: &Type| matches!(t, Type::Int(_));
        let float = |t: &Type| matches!(t, Type::Float(_));
        let bits = |t: &Type| match *t {
            Type::Int(bits) => u64::from(bits),
            Type::Float(kind) => kind.bits(),
            _ => 0,
        };
        let (to, from) = (to_element, from_element);
        match cast {
            VpCast::Trunc if !(int(to) && int(from)) => Some(
                "llvm.vp.trunc intrinsic first argument and result element type must be integer",
            ),
            VpCast::Trunc if bits(to) >= bits(from) => Some(
                "llvm.vp.trunc intrinsic the bit size of first argument must be larger than the \
                 bit size of the return type",
            ),
            VpCast::Extend if !(int(to) && int(from)) => Some(
                "llvm.vp.zext or llvm.vp.sext intrinsic first argument and result element type \
                 must be integer",
            ),
            VpCast::Extend if bits(to) <= bits(from) => Some(
                "llvm.vp.zext or llvm.vp.sext intrinsic the bit size of first argument must be \
                 smaller than the bit size of the return type",
            ),
            // LLVM's message runs two of its words together.
            VpCast::FloatToInt if !(int(to) && float(from)) => Some(
                "llvm.vp.fptoui, llvm.vp.fptosi, llvm.vp.lrint or llvm.vp.llrintintrinsic first \
                 argument element type must be floating-point and result element type must be \
                 integer",
            ),
            VpCast::IntToFloat if !(float(to) && int(from)) => Some(
                "llvm.vp.uitofp or llvm.vp.sitofp intrinsic first argument element type must be \
                 integer and result element type must be floating-point",
            ),
            VpCast::FloatTrunc if !(float(to) && float(from)) => Some(
                "llvm.vp.fptrunc intrinsic first argument and result element type must be \
                 floating-point",
            ),
            VpCast::FloatTrunc if bits(to) >= bits(from) => Some(
                "llvm.vp.fptrunc intrinsic the bit size of first argument must be larger than \
                 the bit size of the return type",
            ),
            VpCast::FloatExtend if !(float(to) && float(from)) => Some(
                "llvm.vp.fpext intrinsic first argument and result element type must be \
                 floating-point",
            ),
            VpCast::FloatExtend if bits(to) <= bits(from) => Some(
                "llvm.vp.fpext intrinsic the bit size of first argument must be smaller than the \
                 bit size of the return type",
            ),
            VpCast::PtrToInt if !(int(to) && matches!(from, Type::Ptr(_))) => Some(
                "llvm.vp.ptrtoint intrinsic first argument element type must be pointer and \
                 result element type must be integer",
            ),
            VpCast::IntToPtr if !(matches!(to, Type::Ptr(_)) && int(from)) => Some(
                "llvm.vp.inttoptr intrinsic first argument element type must be integer and \
                 result element type must be pointer",
            ),
            _ => None,
        }
    }

    /// A vector-predicated comparison: its predicate, a metadata string, one of its kind's.
    fn vp_compare_refused(&self, float: bool) -> Option<&'static str> {
        const INTEGER: &[&[u8]] = &[
            b"eq", b"ne", b"ugt", b"uge", b"ult", b"ule", b"sgt", b"sge", b"slt", b"sle",
        ];
        let (_, predicate) = self.argument(2)?;
        let predicate = metadata_argument(self.m, self.body, predicate).copied();
        let predicate = string_operand(self.m, predicate);
        let known = match float {
            true => FP_PREDICATES,
            false => INTEGER,
        };
        match predicate {
            Some(p) if known.contains(&&p[..]) => None,
            _ if float => Some("invalid predicate for VP FP comparison intrinsic"),
            _ => Some("invalid predicate for VP integer comparison intrinsic"),
        }
    }

    /// The layout of `ty` (whether it is sized, `Type::isSized`: a target extension type as
    /// LLVM's table of them says): the module's for its types, worked out for a body's own.
    fn layout(&self, ty: TypeId, depth: u32) -> Layout {
        let (m, body) = (self.m, self.body);
        let ty = body.resolve_ty(m, ty);
        if let Some(layout) = m.types.layout(ty) {
            return layout;
        }
        if depth > Layout::NESTING_LIMIT {
            return Layout::DEEP;
        }
        Layout::of(
            body.ty(m, ty),
            |t| body.ty(m, body.resolve_ty(m, t)),
            |t| self.layout(t, depth + 1),
        )
    }

    /// A relocation names its statepoint: the token of a call of `llvm.experimental.gc.statepoint`
    /// (one of `calls`), of a `landingpad` (whose own rules are not checked here), or `undef`.
    /// A token an `invoke` makes (`calls` holds calls only), or another piece of the body
    /// defines, is not checked.
    fn gc_relocate_refused(&self, calls: &[IntrinsicCall]) -> Option<&'static str> {
        let (_, token) = self.argument(0)?;
        let statepoint =
            |name: &[u8]| intrinsics::is_named(name, b"llvm.experimental.gc.statepoint");
        let tied = match token.kind() {
            ValueKind::Local(l) => match self.body.locals[l].def {
                LocalDef::Inst(i) => {
                    matches!(
                        self.body.insts[i].opcode,
                        Opcode::LandingPad | Opcode::Invoke
                    ) || calls
                        .iter()
                        .any(|(_, name, at)| *at == i && statepoint(name))
                }
                NOT_YET_DEFINED => true,
                _ => false,
            },
            ValueKind::Const(_) => {
                matches!(self.constant(token), Some(Const::Undef | Const::Poison))
            }
            ValueKind::Global(_) => false,
        };
        (!tied).then_some("gc relocate is incorrectly tied to the statepoint")
    }

    /// The pattern `llvm.experimental.memset.pattern` stores is of a sized type.
    fn memset_pattern_refused(&self) -> Option<&'static str> {
        let (pattern, _) = self.argument(1)?;
        (!self.layout(pattern, 0).sized)
            .then_some("unsized types cannot be used as memset patterns")
    }

    fn bswap_refused(&self) -> Option<&'static str> {
        let bits = self.scalar_bits(self.body.insts[self.call].ty)?;
        (bits % 16 != 0).then_some("bswap must be an even number of bytes")
    }

    fn three_way_compare_refused(&self) -> Option<&'static str> {
        let result = self.body.insts[self.call].ty;
        let (argument, _) = self.argument(0)?;
        let ((_, result_lanes), (_, argument_lanes)) = (self.shape(result), self.shape(argument));
        if self.scalar_bits(result).is_some_and(|bits| bits < 2) {
            Some("result type must be at least 2 bits wide")
        } else if result_lanes.is_some() != argument_lanes.is_some() {
            Some("ucmp/scmp argument and result types must both be either vector or scalar types")
        } else if result_lanes != argument_lanes {
            Some("return type and arguments must have the same number of elements")
        } else {
            None
        }
    }

    fn vector_length_refused(&self) -> Option<&'static str> {
        let (_, factor) = self.argument(1)?;
        let positive = match *self.constant(factor)? {
            Const::Int(span, width) => match int_value(self.m.bytes(span), width)? {
                IntValue::Bits(bits) => bits != 0 && (width == 0 || bits >> (width - 1) == 0),
                IntValue::Wide(bits, ones_above) => bits != 0 && !ones_above,
            },
            Const::Zero => false,
            _ => return None,
        };
        (!positive).then_some("get_vector_length: VF must be positive")
    }

    fn thread_local_address_refused(&self) -> Option<&'static str> {
        let (_, address) = self.argument(0)?;
        let ValueKind::Global(u) = address.kind() else {
            return Some("llvm.threadlocal.address first argument must be a GlobalValue");
        };
        let global = self.m.use_in_body(self.uses, u)?.global;
        // A name not yet resolved (an intrinsic never declared, which no argument may name) is
        // no rule of this one's to break. Bodies are verified only once the top level read,
        // every definition with it; a definition is still looked up, not indexed (no panic).
        let thread_local = match self.m.globals.get(global)?.kind {
            GlobalKind::Variable(v) => self.m.variables.get(v)?.thread_local,
            GlobalKind::Alias(a) => self.m.aliases.get(a)?.thread_local,
            GlobalKind::Function(_) | GlobalKind::Intrinsic => false,
            GlobalKind::Pending => return None,
        };
        (!thread_local).then_some("llvm.threadlocal.address operand isThreadLocal() must be true")
    }

    /// A lifetime marker names an alloca or poison. (The form LLVM 22 upgrades, with a
    /// size before the pointer, is not checked: LLVM drops the markers of other pointers.)
    /// A local that another piece of the body defines goes to `far_allocas`, for the join
    /// to check.
    fn lifetime_refused(&self, far_allocas: &mut Vec<LocalId>) -> Option<&'static str> {
        let mut arguments = call_arguments(self.body, self.call);
        let (_, pointer) = arguments.next()?;
        if arguments.next().is_some() {
            return None;
        }
        let named = match pointer.kind() {
            ValueKind::Local(l) => match self.body.locals[l].def {
                LocalDef::Inst(i) => self.body.insts[i].opcode == Opcode::Alloca,
                NOT_YET_DEFINED => {
                    far_allocas.push(l);
                    true
                }
                _ => false,
            },
            ValueKind::Const(_) => matches!(self.constant(pointer), Some(Const::Poison)),
            ValueKind::Global(_) => false,
        };
        (!named).then_some("llvm.lifetime.start/end can only be used on alloca or poison")
    }

    fn fixed_point_refused(&self, signed: bool) -> Option<&'static str> {
        let (ty, _) = self.argument(0)?;
        let width = u64::from(self.scalar_bits(ty)?);
        let (scale, _) = self.integer_argument(2)?;
        match signed {
            true => (scale >= width).then_some(
                "the scale of s[mul|div]_fix[_sat] must be less than the width of the operands",
            ),
            false => (scale > width).then_some(
                "the scale of u[mul|div]_fix[_sat] must be less than or equal to the width of \
                 the operands",
            ),
        }
    }

    /// The size is a constant of -1, 0 or more.
    fn invariant_start_refused(&self) -> Option<&'static str> {
        const MESSAGE: &str = "invariant_start parameter must be -1, 0 or a positive number";
        let Some((bits, width)) = self.integer_argument(0) else {
            return Some(MESSAGE);
        };
        let negative = width > 0 && bits >> (width - 1) & 1 == 1;
        let minus_one = bits == u64::MAX >> (64 - width.clamp(1, 64));
        (negative && !minus_one).then_some(MESSAGE)
    }

    /// (A result that is no vector breaks the signature, checked with the declaration.)
    fn step_vector_refused(&self) -> Option<&'static str> {
        let result = self.body.insts[self.call].ty;
        match self.shape(result) {
            (Type::Int(8..), _) | (_, None) => None,
            _ => Some(
                "stepvector only supported for vectors of integers with a bitwidth of at least 8.",
            ),
        }
    }

    /// (A result that is no vector breaks the signature, checked with the declaration.)
    fn active_lane_mask_refused(&self) -> Option<&'static str> {
        match self.shape(self.body.insts[self.call].ty) {
            (Type::Int(1), _) | (_, None) => None,
            _ => Some("get_active_lane_mask: element type is not i1"),
        }
    }

    /// The shapes a matrix intrinsic's integer arguments give match its vectors' lengths and
    /// element types, and a constant stride is at least the number of rows.
    fn matrix_refused(&self, form: Matrix) -> Option<&'static str> {
        let number = |i: usize| self.integer_argument(i).map(|(n, _)| n);
        let lanes = |ty: TypeId| match self.shape(ty).1 {
            Some((false, len)) => Some(len),
            _ => None,
        };
        let result = self.body.insts[self.call].ty;
        let (rows, columns, result, first, second, stride) = match form {
            Matrix::Multiply => {
                let ((a, _), (b, _)) = (self.argument(0)?, self.argument(1)?);
                let (rows, inner, columns) = (number(2)?, number(3)?, number(4)?);
                if lanes(a)? != rows.wrapping_mul(inner) {
                    return Some(
                        "First argument of a matrix operation does not match specified shape!",
                    );
                }
                if lanes(b)? != inner.wrapping_mul(columns) {
                    return Some(
                        "Second argument of a matrix operation does not match specified shape!",
                    );
                }
                (rows, columns, result, Some(a), Some(b), None)
            }
            Matrix::Transpose => {
                let (a, _) = self.argument(0)?;
                (number(1)?, number(2)?, result, Some(a), None, None)
            }
            Matrix::ColumnMajorLoad => (number(3)?, number(4)?, result, None, None, Some(1)),
            Matrix::ColumnMajorStore => {
                let (a, _) = self.argument(0)?;
                (number(4)?, number(5)?, a, Some(a), None, Some(2))
            }
        };
        // (A result that is no vector breaks the signature, checked with the declaration.)
        let result_lanes = lanes(result)?;
        let element = self.shape(result).0;
        if !matches!(element, Type::Int(_) | Type::Float(_)) {
            return Some("Result type must be an integer or floating-point type!");
        }
        if first.is_some_and(|a| self.shape(a).0 != element) {
            return Some("Vector element type mismatch of the result and first operand vector!");
        }
        if second.is_some_and(|b| self.shape(b).0 != element) {
            return Some("Vector element type mismatch of the result and second operand vector!");
        }
        if result_lanes != rows.wrapping_mul(columns) {
            return Some("Result of a matrix operation does not fit in the returned vector!");
        }
        match stride.and_then(number) {
            Some(stride) if stride < rows => {
                Some("Stride must be greater or equal than the number of rows!")
            }
            _ => None,
        }
    }

    /// The element size a power of 2, and no larger than the alignment the call gives the
    /// destination (and source) pointer.
    fn element_atomic_refused(&self, transfer: bool) -> Option<&'static str> {
        let (size, _) = self.integer_argument(3)?;
        if !size.is_power_of_two() {
            return Some(
                "element size of the element-wise atomic memory intrinsic must be a power of 2",
            );
        }
        let aligned = |index| {
            self.argument_align(index)
                .is_some_and(|align| size <= align)
        };
        if !aligned(0) {
            return Some("incorrect alignment of the destination argument");
        }
        (transfer && !aligned(1)).then_some("incorrect alignment of the source argument")
    }

    /// The `align N` the call gives its argument `index`, if any.
    fn argument_align(&self, index: usize) -> Option<u64> {
        let src = self.m.source.as_bytes();
        self.argument_attrs(index)?.iter().find_map(|a| {
            let text = &src[a.span().range()];
            let digits = text.strip_prefix(b"align")?.trim_ascii_start();
            let digits = digits.strip_prefix(b"(").unwrap_or(digits);
            let end = digits
                .iter()
                .position(|b| !b.is_ascii_digit())
                .unwrap_or(digits.len());
            std::str::from_utf8(&digits[..end]).ok()?.parse().ok()
        })
    }

    /// A statepoint (`Verifier::verifyStatepoint`): free to read and write any memory, of a
    /// count of bytes to patch not below 0, wrapping a call of the function type its callee's
    /// `elementtype` gives (as many arguments as it takes, of its types; a function of
    /// variable arguments returns `void`), with flags LLVM knows and no transition or
    /// deoptimization arguments of its own (bundles carry them), nothing after. (Which
    /// instructions use its token is not checked.)
    fn statepoint_refused(&self) -> Option<&'static str> {
        let (m, body) = (self.m, self.body);
        let group = |n| m.attr_group(n);
        let src = m.source.as_bytes();
        let effects = super::verify_attributes::memory_effects(src, self.function_attrs(), group);
        if effects.only_reads() || effects.only_arguments() {
            return Some(
                "gc.statepoint must read and write all memory to preserve reordering \
                 restrictions required by safepoint semantics",
            );
        }
        let (patch_bytes, width) = self.integer_argument(1)?;
        if width > 0 && patch_bytes >> (width - 1) & 1 == 1 {
            return Some("gc.statepoint number of patchable bytes must be positive");
        }
        let &Type::Function {
            ret,
            ref params,
            varargs,
        } = self.element_function_type(2)?
        else {
            return None;
        };
        let (wrapped, _) = self.integer_argument(3)?;
        if wrapped >= 1 << 31 {
            return Some("gc.statepoint number of arguments to underlying call must be positive");
        }
        let wrapped = wrapped as usize;
        if varargs {
            if wrapped < params.len() {
                return Some("gc.statepoint mismatch in number of vararg call args");
            }
            if !matches!(body.ty(m, ret), Type::Void) {
                return Some(
                    "gc.statepoint doesn't support wrapping non-void vararg functions yet",
                );
            }
        } else if wrapped != params.len() {
            return Some("gc.statepoint mismatch in number of call args");
        }
        let (flags, _) = self.integer_argument(4)?;
        if flags & !3 != 0 {
            return Some("unknown flag used in gc.statepoint flags argument");
        }
        for (i, &param) in params.iter().enumerate() {
            let (ty, _) = self.argument(5 + i)?;
            if body.resolve_ty(m, ty) != body.resolve_ty(m, param) {
                return Some("gc.statepoint call argument does not match wrapped function type");
            }
        }
        let counts = [
            (
                "gc.statepoint number of transition arguments must be constant integer",
                "gc.statepoint w/inline transition bundle is deprecated",
            ),
            (
                "gc.statepoint number of deoptimization arguments must be constant integer",
                "gc.statepoint w/inline deopt operands is deprecated",
            ),
        ];
        for (at, (not_constant, not_zero)) in (5 + wrapped..).zip(counts) {
            self.argument(at)?;
            match self.integer_argument(at) {
                None => return Some(not_constant),
                Some((count, _)) if count != 0 => return Some(not_zero),
                Some(_) => {}
            }
        }
        (call_arguments(body, self.call).count() != 7 + wrapped)
            .then_some("gc.statepoint too many arguments")
    }

    /// In function `f`, which names its collector: a result of a statepoint among `calls`
    /// (or undefined), of the type the function the statepoint wraps returns.
    fn gc_result_refused(&self, f: FuncId, calls: &[IntrinsicCall]) -> Option<&'static str> {
        let (m, body) = (self.m, self.body);
        if m.functions.get(f)?.extras().rare().gc.is_none() {
            return Some("Enclosing function does not use GC.");
        }
        let (_, token) = self.argument(0)?;
        if matches!(self.constant(token), Some(Const::Undef | Const::Poison)) {
            return None;
        }
        let statepoint = match token.kind() {
            ValueKind::Local(l) => match body.locals[l].def {
                LocalDef::Inst(i) => calls.iter().find(|(_, name, at)| {
                    *at == i && intrinsics::is_named(name, b"llvm.experimental.gc.statepoint")
                }),
                NOT_YET_DEFINED => return None,
                _ => None,
            },
            _ => None,
        };
        let Some(&(_, _, statepoint)) = statepoint else {
            return Some("gc.result operand #1 must be from a statepoint");
        };
        let wrapped = Call {
            call: statepoint,
            ..*self
        };
        let &Type::Function { ret, .. } = wrapped.element_function_type(2)? else {
            return None;
        };
        let result = body.resolve_ty(m, body.insts[self.call].ty);
        (result != body.resolve_ty(m, ret))
            .then_some("gc.result result type does not match wrapped callee")
    }

    /// A setup's token, and the call marked `preallocated`.
    fn preallocated_arg_refused(&self, calls: &[IntrinsicCall]) -> Option<&'static str> {
        let token_refused = self.preallocated_token_refused(
            calls,
            "llvm.call.preallocated.arg token argument must be a llvm.call.preallocated.setup",
        );
        let marked = || {
            self.function_attrs().iter().any(|a| {
                matches!(a.kind(), AttrKind::Typed(span, _) if self.m.bytes(span) == b"preallocated")
            })
        };
        token_refused.or_else(|| {
            (!marked()).then_some(
                "llvm.call.preallocated.arg must be called with a \"preallocated\" call site \
                 attribute",
            )
        })
    }

    /// `message` unless argument 0 is the token of a call among `calls` of
    /// `llvm.call.preallocated.setup`.
    fn preallocated_token_refused(
        &self,
        calls: &[IntrinsicCall],
        message: &'static str,
    ) -> Option<&'static str> {
        let (_, token) = self.argument(0)?;
        let made = match token.kind() {
            ValueKind::Local(l) => match self.body.locals[l].def {
                LocalDef::Inst(i) => calls.iter().any(|(_, name, at)| {
                    *at == i && intrinsics::is_named(name, b"llvm.call.preallocated.setup")
                }),
                NOT_YET_DEFINED => return None,
                _ => false,
            },
            _ => false,
        };
        (!made).then_some(message)
    }

    /// The uses of a `llvm.call.preallocated.setup`'s token: calls, of
    /// `llvm.call.preallocated.arg` at an index below the setup's count, of
    /// `llvm.call.preallocated.teardown`, or one other call with as many `preallocated`
    /// arguments as that count and a `"preallocated"` bundle.
    fn preallocated_setup_refused(&self, calls: &[IntrinsicCall]) -> Option<&'static str> {
        let body = self.body;
        let token = Value::local(body.insts[self.call].result?);
        let (count, width) = self.integer_argument(0)?;
        let signed = |bits: u64, width: u32| match width {
            64.. => bits as i64,
            0 => 0,
            _ => ((bits << (64 - width)) as i64) >> (64 - width),
        };
        let count = signed(count, width);
        let mut found_call = false;
        for (user, inst) in body.insts.iter() {
            if !body.items(user).contains(&Item::Value(token)) {
                continue;
            }
            if !matches!(inst.opcode, Opcode::Call | Opcode::Invoke | Opcode::CallBr) {
                return Some("Uses of llvm.call.preallocated.setup must be calls");
            }
            let intrinsic = calls
                .iter()
                .find(|(_, _, at)| *at == user)
                .map(|(_, name, _)| name);
            let use_call = Call {
                call: user,
                ..*self
            };
            match intrinsic {
                Some(name) if intrinsics::is_named(name, b"llvm.call.preallocated.arg") => {
                    let Some((index, width)) = use_call.integer_argument(1) else {
                        return Some("llvm.call.preallocated.alloc arg index must be a constant");
                    };
                    let index = signed(index, width);
                    if index < 0 || index >= count {
                        return Some(
                            "llvm.call.preallocated.alloc arg index must be between 0 and \
                             corresponding llvm.call.preallocated.setup's argument count",
                        );
                    }
                }
                Some(name) if intrinsics::is_named(name, b"llvm.call.preallocated.teardown") => {}
                _ => {
                    if found_call {
                        return Some(
                            "Can have at most one call corresponding to a \
                             llvm.call.preallocated.setup",
                        );
                    }
                    found_call = true;
                    let arguments = call_arguments(body, user).count();
                    let preallocated = (0..arguments)
                        .filter(|&i| {
                            use_call.argument_attrs(i).is_some_and(|attrs| {
                                attrs.iter().any(|a| {
                                    matches!(a.kind(), AttrKind::Typed(span, _)
                                        if self.m.bytes(span) == b"preallocated")
                                })
                            })
                        })
                        .count();
                    if preallocated == 0 {
                        return Some(
                            "cannot use preallocated intrinsics on a call without preallocated \
                             arguments",
                        );
                    }
                    if count != preallocated as i64 {
                        return Some(
                            "llvm.call.preallocated.setup arg size must be equal to number of \
                             preallocated arguments at call site",
                        );
                    }
                    let bundled = body
                        .call_bundle_tags(user)
                        .any(|tag| self.m.bytes(tag) == b"\"preallocated\"");
                    if !bundled {
                        return Some(
                            "Use of llvm.call.preallocated.setup outside intrinsics must be in \
                             \"preallocated\" operand bundle",
                        );
                    }
                }
            }
        }
        None
    }

    /// The call's own function attributes (after its arguments).
    fn function_attrs(&self) -> &'a [Attr] {
        let items = self.body.items(self.call);
        let after = items
            .iter()
            .position(|it| *it == Item::Mark(b'('))
            .and_then(|open| {
                let close = items[open..]
                    .iter()
                    .position(|it| *it == Item::Mark(b')'))?;
                items.get(open + close + 1)
            });
        match after {
            Some(&Item::Attrs(list)) => self.body.attr_list(list),
            _ => &[],
        }
    }

    /// The attributes the call gives its argument `index`.
    fn argument_attrs(&self, index: usize) -> Option<&'a [Attr]> {
        let (attrs, _) = self.body.call_argument_lists(self.call).nth(index)?;
        Some(attrs)
    }

    /// The function type the call's argument `index` gives by `elementtype(...)`, as a
    /// statepoint names the function it wraps.
    fn element_function_type(&self, index: usize) -> Option<&'a Type> {
        let (m, body) = (self.m, self.body);
        let ty = self
            .argument_attrs(index)?
            .iter()
            .find_map(|a| match a.kind() {
                AttrKind::Typed(span, ty) if m.bytes(span) == b"elementtype" => Some(ty),
                _ => None,
            })?;
        let ty = body.ty(m, body.resolve_ty(m, ty));
        matches!(ty, Type::Function { .. }).then_some(ty)
    }

    /// A floating-point argument and an integer result, both vectors of one length or
    /// neither.
    fn round_to_int_refused(&self) -> Option<&'static str> {
        let (argument, _) = self.argument(0)?;
        let result = self.body.insts[self.call].ty;
        let ((from, from_lanes), (to, to_lanes)) = (self.shape(argument), self.shape(result));
        if !matches!(from, Type::Float(_)) || !matches!(to, Type::Int(_)) {
            return Some(
                "argument must be floating-point or vector of floating-points, and result must \
                 be integer or vector of integers",
            );
        }
        match (from_lanes, to_lanes) {
            (Some(_), None) | (None, Some(_)) => Some("argument and result disagree on vector use"),
            (Some(a), Some(b)) if a != b => Some("argument must be same length as result"),
            _ => None,
        }
    }

    /// The alloca argument `index` names, seen through casts: `Some(None)` when it names
    /// none, `None` when that cannot be told here.
    fn alloca_argument(&self, index: usize) -> Option<Option<InstId>> {
        let (_, argument) = self.argument(index)?;
        let ValueKind::Local(l) = self.stripped(argument)?.kind() else {
            return Some(None);
        };
        Some(match self.body.locals[l].def {
            LocalDef::Inst(i) if self.body.insts[i].opcode == Opcode::Alloca => Some(i),
            _ => None,
        })
    }

    /// A root is an alloca, its metadata a constant, and one of them says it is a pointer:
    /// the alloca's type or a metadata not null. (That the function names a collector is
    /// the module's check, `gc_intrinsics_hold`.)
    fn gc_root_refused(&self) -> Option<&'static str> {
        let alloca = match self.alloca_argument(0)? {
            Some(alloca) => alloca,
            None => return Some("llvm.gcroot parameter #1 must be an alloca."),
        };
        let (_, metadata) = self.argument(1)?;
        if !matches!(metadata.kind(), ValueKind::Const(_) | ValueKind::Global(_)) {
            return Some("llvm.gcroot parameter #2 must be a constant.");
        }
        let (m, body) = (self.m, self.body);
        let allocated = body.items(alloca).iter().find_map(|item| match *item {
            Item::Type(ty) => Some(ty),
            _ => None,
        })?;
        let pointer = matches!(body.ty(m, body.resolve_ty(m, allocated)), Type::Ptr(_));
        let null = matches!(self.constant(metadata), Some(Const::Null | Const::Zero));
        (!pointer && null).then_some(
            "llvm.gcroot parameter #1 must either be a pointer alloca, or argument #2 must be a \
             non-null constant.",
        )
    }

    /// A call of a masked access declared in its form before LLVM 22, with the alignment as
    /// an argument: LLVM rewrites it as it reads it (`UpgradeIntrinsicCall`), and stops with a
    /// fatal error at an alignment that is not a constant power of two (or zero, where the
    /// access may take its type's).
    fn old_masked_alignment_refused(
        &self,
        callee: Span,
        alignment_at: usize,
        zero: bool,
    ) -> Option<&'static str> {
        let m = self.m;
        let arguments = call_arguments(self.body, self.call).count();
        // Never declared, it is declared at the call's type.
        let declared = match super::parser::global_named(m, &m.bytes(callee)[1..]) {
            Some(global) => m.function_of(global).map(|f| m.functions[f].params.len()),
            None => Some(arguments),
        };
        if declared != Some(4) || arguments != 4 {
            return None;
        }
        match self.integer_argument(alignment_at) {
            Some((0, _)) if zero => None,
            Some((0, _)) => Some("Invalid zero alignment argument"),
            Some((alignment, _)) if alignment.is_power_of_two() => None,
            _ => Some("Invalid alignment argument"),
        }
    }

    /// The trampoline's function is a function (a constant expression is taken as it may be
    /// a cast of one).
    fn init_trampoline_refused(&self) -> Option<&'static str> {
        let (_, function) = self.argument(1)?;
        let stripped = self.stripped(function)?;
        let is_function = match stripped.kind() {
            ValueKind::Global(u) => {
                let global = self.m.use_in_body(self.uses, u)?.global;
                match self.m.globals.get(global)?.kind {
                    GlobalKind::Function(_) | GlobalKind::Intrinsic | GlobalKind::Pending => true,
                    GlobalKind::Variable(_) | GlobalKind::Alias(_) => false,
                }
            }
            ValueKind::Const(_) => matches!(self.constant(stripped), Some(Const::Expr(_))),
            ValueKind::Local(_) => false,
        };
        (!is_function).then_some("llvm.init_trampoline parameter #2 must resolve to a function.")
    }

    /// `llvm.localescape`: once, in the entry block, of static allocas or null. Its count goes
    /// to `frames`.
    fn local_escape_refused(&self, frames: &mut FrameUses) -> Option<&'static str> {
        let entry = self.body.blocks.get(BlockId::new(0))?;
        if !entry.insts().any(|i| i == self.call) {
            return Some("llvm.localescape used outside of entry block");
        }
        if frames.escaped.is_some() {
            return Some("multiple calls to llvm.localescape in one function");
        }
        let mut count = 0;
        for (_, argument) in call_arguments(self.body, self.call) {
            count += 1;
            if matches!(self.constant(argument), Some(Const::Null | Const::Zero)) {
                continue;
            }
            let allowed = match self.stripped(argument) {
                Some(v) => match v.kind() {
                    ValueKind::Local(l) => match self.body.locals[l].def {
                        LocalDef::Inst(i) => self.is_static_alloca(i),
                        _ => false,
                    },
                    ValueKind::Const(_) | ValueKind::Global(_) => false,
                },
                None => true,
            };
            if !allowed {
                return Some("llvm.localescape only accepts static allocas");
            }
        }
        frames.escaped = Some(count);
        None
    }

    /// What LLVM's `stripPointerCasts` finds under `v`, looking through casts and
    /// `getelementptr`s of indices all zero; `None` where it may look further than this does
    /// (a call of an argument marked `returned`, a local another piece of the body defines,
    /// an index it cannot tell is zero).
    fn stripped(&self, mut v: Value) -> Option<Value> {
        // A chain in a block never reached may name itself.
        for _ in 0..64 {
            let ValueKind::Local(l) = v.kind() else {
                return Some(v);
            };
            let i = match self.body.locals[l].def {
                LocalDef::Inst(i) => i,
                NOT_YET_DEFINED => return None,
                _ => return Some(v),
            };
            let inst = &self.body.insts[i];
            let items = &self.body.items[inst.items_start as usize..][..inst.items_len as usize];
            let mut operands = items.iter().filter_map(|item| match *item {
                Item::Value(v) => Some(v),
                _ => None,
            });
            match inst.opcode {
                Opcode::BitCast | Opcode::AddrSpaceCast => v = operands.next()?,
                Opcode::GetElementPtr => {
                    let pointer = operands.next()?;
                    for index in operands {
                        match self.constant(index)? {
                            Const::Zero => {}
                            &Const::Int(span, width) => {
                                if int_value(self.m.bytes(span), width)? != IntValue::Bits(0) {
                                    return Some(v);
                                }
                            }
                            _ => return None,
                        }
                    }
                    v = pointer;
                }
                Opcode::Call | Opcode::Invoke | Opcode::CallBr => return None,
                _ => return Some(v),
            }
        }
        None
    }

    /// Whether instruction `i` is a static alloca (`AllocaInst::isStaticAlloca`): in the entry
    /// block, of a constant count, not `inalloca`.
    fn is_static_alloca(&self, i: InstId) -> bool {
        let body = self.body;
        let inst = &body.insts[i];
        if inst.opcode != Opcode::Alloca {
            return false;
        }
        let in_entry = body
            .blocks
            .get(BlockId::new(0))
            .is_some_and(|entry| entry.insts().any(|j| j == i));
        let items = &body.items[inst.items_start as usize..][..inst.items_len as usize];
        let inalloca = matches!(items.first(), Some(&Item::Word { start, len })
            if &self.m.source.as_bytes()[start as usize..][..usize::from(len)] == b"inalloca");
        // After its keywords, the allocated type, then the count's type and value if written.
        let mut after_words = items
            .iter()
            .skip_while(|item| matches!(item, Item::Word { .. }))
            .skip(1);
        let constant_count = match (after_words.next(), after_words.next()) {
            (Some(Item::Type(_)), Some(&Item::Value(count))) => {
                matches!(self.constant(count), Some(Const::Int(..) | Const::Zero))
            }
            _ => true,
        };
        in_entry && !inalloca && constant_count
    }

    /// `llvm.localrecover`: of a function this module defines (a constant expression is taken
    /// as it may be a cast of one); the recovery goes to `frames`, called at `at`.
    fn local_recover_refused(&self, frames: &mut FrameUses, at: Span) -> Option<&'static str> {
        const NOT_DEFINED: &str =
            "llvm.localrecover first argument must be function defined in this module";
        let (_, function) = self.argument(0)?;
        let stripped = self.stripped(function)?;
        let parent = match stripped.kind() {
            ValueKind::Global(u) => {
                let global = self.m.use_in_body(self.uses, u)?.global;
                match self.m.globals.get(global)?.kind {
                    GlobalKind::Function(f) if self.m.functions.get(f)?.body.is_some() => f,
                    GlobalKind::Pending => return None,
                    _ => return Some(NOT_DEFINED),
                }
            }
            ValueKind::Const(_) => match self.constant(stripped)? {
                Const::Expr(_) => return None,
                _ => return Some(NOT_DEFINED),
            },
            ValueKind::Local(_) => return Some(NOT_DEFINED),
        };
        let (bits, width) = self.integer_argument(2)?;
        let index = match width {
            64.. => bits,
            _ => bits & ((1 << width) - 1),
        };
        // LLVM's `getLimitedValue(~0U) + 1`.
        frames
            .recovered
            .push((parent, index.min(u64::from(u32::MAX)) + 1, at));
        None
    }

    /// How many of the call's operand bundles are `"deopt"`.
    fn deopt_bundles(&self) -> usize {
        self.body
            .call_bundle_tags(self.call)
            .filter(|&tag| self.m.bytes(tag) == b"\"deopt\"")
            .count()
    }

    /// A deoptimization: one `"deopt"` bundle, and a `ret` (of its value, if any) next.
    /// (That it returns the caller's type is not checked here.)
    fn invoked(&self) -> bool {
        self.body.insts[self.call].opcode != Opcode::Call
    }

    fn guard_refused(&self) -> Option<&'static str> {
        if self.invoked() {
            return Some("experimental_guard cannot be invoked");
        }
        (self.deopt_bundles() != 1)
            .then_some("experimental_guard must have exactly one \"deopt\" operand bundle")
    }

    /// In function `f`: called (not invoked) with one `"deopt"` bundle, of `f`'s result type,
    /// and followed by a return of its value.
    fn deoptimize_refused(&self, f: FuncId) -> Option<&'static str> {
        if self.invoked() {
            return Some("experimental_deoptimize cannot be invoked");
        }
        if self.deopt_bundles() != 1 {
            return Some("experimental_deoptimize must have exactly one \"deopt\" operand bundle");
        }
        let (m, body) = (self.m, self.body);
        let result = body.resolve_ty(m, body.insts[self.call].ty);
        if m.functions
            .get(f)
            .is_some_and(|func| body.resolve_ty(m, func.ret_ty) != result)
        {
            return Some("experimental_deoptimize return type must match caller return type");
        }
        let next = InstId::new(self.call.index() + 1);
        let next_inst = self.body.insts.get(next)?;
        if next_inst.opcode != Opcode::Ret {
            return Some("calls to experimental_deoptimize must be followed by a return");
        }
        let result = self.body.insts[self.call].result?;
        let returned = self.body.items(next).iter().find_map(|it| match *it {
            Item::Value(v) => Some(v),
            _ => None,
        });
        (returned != Some(Value::local(result))).then_some(
            "calls to experimental_deoptimize must be followed by a return of the value computed \
             by experimental_deoptimize",
        )
    }

    /// The offset is an integer as wide as a pointer into the allocas' address space.
    fn dynamic_area_offset_refused(&self) -> Option<&'static str> {
        let layout = &self.m.data_layout;
        let bits = layout.pointer_bits(layout.alloca_addr_space);
        let ty = self.body.insts[self.call].ty;
        (!matches!(self.shape(ty), (Type::Int(b), None) if *b == bits)).then_some(
            "get_dynamic_area_offset result type must be scalar integer matching alloca \
                 address space width",
        )
    }

    /// Each of `rules`, (argument, bound, message) in order: the argument's value, an
    /// integer (an immediate), is below the bound (LLVM's `getZExtValue`).
    fn below_refused(&self, rules: &[(usize, u64, &'static str)]) -> Option<&'static str> {
        rules.iter().find_map(|&(index, bound, message)| {
            let (value, _) = self.integer_argument(index)?;
            (value >= bound).then_some(message)
        })
    }

    /// The address space of argument `index`, a pointer.
    fn pointer_space(&self, index: usize) -> Option<u32> {
        let (ty, _) = self.argument(index)?;
        match self.shape(ty) {
            (&Type::Ptr(space), None) => Some(space),
            _ => None,
        }
    }

    /// `llvm.amdgcn.init.exec.from.input` passes a parameter of `f` that is `inreg`.
    fn exec_input_refused(&self, f: FuncId) -> Option<&'static str> {
        let (_, input) = self.argument(0)?;
        let inreg = match input.kind() {
            ValueKind::Local(l) => match self.body.locals[l].def {
                NOT_YET_DEFINED => return None,
                LocalDef::Arg(i) => {
                    let param = self.m.functions.get(f)?.params.get(i as usize)?;
                    let (src, attrs) = (self.m.source.as_bytes(), self.m.attr_list(param.attrs));
                    super::verify_attributes::attribute_of(
                        src,
                        attrs,
                        super::verify_attributes::INREG,
                    )
                    .is_some()
                }
                _ => false,
            },
            _ => false,
        };
        (!inreg).then_some(
            "only inreg arguments to the parent function are valid as inputs to this intrinsic",
        )
    }

    /// A cooperative atomic access is of a flat or global pointer, and names, last, a node
    /// of one string.
    fn cooperative_atomic_refused(&self) -> Option<&'static str> {
        if !matches!(self.pointer_space(0)?, 0 | 1) {
            return Some("cooperative atomic intrinsics require a generic or global pointer");
        }
        let (_, last) = call_arguments(self.body, self.call).last()?;
        let MdRef::Node(node) = *metadata_argument(self.m, self.body, last)? else {
            return None;
        };
        // The node may be the body's own, written in the call (`metadata !{}`).
        let one_string = match &self.body.md_node(self.m, node).body {
            MdBody::Tuple(operands) => matches!(operands[..], [Some(MdRef::Str(_))]),
            MdBody::Pending => return None,
            _ => false,
        };
        (!one_string).then_some(
            "cooperative atomic intrinsics require that the last argument is a metadata string",
        )
    }

    /// An AMDGPU matrix multiplication of formats `f8f6f4`: each format at most 4, each
    /// vector of `i32`s of one of the lengths, at least as long as its format takes.
    fn matrix_formats_refused(&self, form: MatrixFormats) -> Option<&'static str> {
        let mut formats = [0; 2];
        for (format, &(index, _)) in formats.iter_mut().zip(&form.formats) {
            *format = self.integer_argument(index)?.0;
            if *format > 4 {
                return Some(form.format_message);
            }
        }
        let mut lengths = [0; 2];
        for (i, &(_, index)) in form.formats.iter().enumerate() {
            let (ty, _) = self.argument(index)?;
            match self.shape(ty) {
                (Type::Int(32), Some((false, len))) if form.lengths.contains(&len) => {
                    lengths[i] = len
                }
                _ => return Some(form.vector_messages[i]),
            }
        }
        let needed = |format: u64| match format {
            0 | 1 => form.lengths[2],
            2 | 3 => form.lengths[1],
            _ => form.lengths[0],
        };
        (0..2)
            .any(|i| lengths[i] < needed(formats[i]))
            .then_some("invalid vector type for format")
    }

    fn reloc_none_refused(&self) -> Option<&'static str> {
        let (_, symbol) = self.argument(0)?;
        let symbol = metadata_argument(self.m, self.body, symbol)?;
        (!matches!(symbol, MdRef::Str(_)))
            .then_some("llvm.reloc.none argument must be a metadata string")
    }

    fn fptrunc_round_refused(&self) -> Option<&'static str> {
        let (_, mode) = self.argument(1)?;
        let mode = metadata_argument(self.m, self.body, mode).copied();
        let Some(mode) = string_operand(self.m, mode) else {
            return Some(
                "invalid value for llvm.fptrunc.round metadata operand (the operand should be a \
                 string)",
            );
        };
        let known = ROUNDING_MODES.contains(&&mode[..]) && &mode[..] != b"round.dynamic";
        (!known).then_some("unsupported rounding mode argument")
    }
}
