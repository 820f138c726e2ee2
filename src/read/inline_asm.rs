//! An inline assembly call's constraint string, read as LLVM 22 reads it
//! (`InlineAsm::ParseConstraints`), and what LLVM asks of it: against the call's type as its
//! parser reads the call (`InlineAsm::verify`), and against the call's arguments in its
//! verifier (`verifyInlineAsmCall`: an indirect operand is a pointer with an `elementtype`).

/// What a constraint stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Output,
    Input,
    Clobber,
    Label,
}

/// One constraint: its kind, whether its operand is passed by pointer (`=*m`), and the
/// input tied to it (`0` ties an input to output 0), by alternative when it has several
/// (`r|m`), -1 where none is.
#[derive(Clone, Debug)]
pub(super) struct Constraint {
    pub kind: Kind,
    pub indirect: bool,
    matching_input: i64,
    alternatives: Vec<i64>,
}

impl Constraint {
    /// Whether the call passes an argument for it: an input, or an output by pointer.
    pub fn has_argument(&self) -> bool {
        self.kind == Kind::Input || (self.kind == Kind::Output && self.indirect)
    }
}

/// The constraints of `text` (unescaped), or `None` where LLVM fails to parse them (an empty
/// constraint, a trailing comma, a register name left open, a tie to no output...). An empty
/// text has none.
pub(super) fn parse(text: &[u8]) -> Option<Vec<Constraint>> {
    let mut constraints = Vec::new();
    if text.is_empty() {
        return Some(constraints);
    }
    let mut pieces = text.split(|&b| b == b',');
    for piece in pieces.by_ref() {
        // Empty, as in ",," or a trailing comma.
        if piece.is_empty() {
            return None;
        }
        let constraint = parse_one(piece, &mut constraints)?;
        constraints.push(constraint);
    }
    Some(constraints)
}

/// One constraint, as `ConstraintInfo::Parse` reads it; the constraints before it are
/// `so_far`, whose ties it records.
fn parse_one(s: &[u8], so_far: &mut [Constraint]) -> Option<Constraint> {
    let at = |i: usize| s.get(i).copied();
    let alternatives = s.iter().filter(|&&b| b == b'|').count() + 1;
    let multiple = alternatives > 1;
    let mut c = Constraint {
        kind: Kind::Input,
        indirect: false,
        matching_input: -1,
        alternatives: if multiple {
            vec![-1; alternatives]
        } else {
            Vec::new()
        },
    };
    let mut i = 0;
    match at(0) {
        Some(b'~') => {
            c.kind = Kind::Clobber;
            i += 1;
            // A clobber names a register: `{` follows at once.
            if i < s.len() && s[i] != b'{' {
                return None;
            }
        }
        Some(b'=') => {
            c.kind = Kind::Output;
            i += 1;
        }
        Some(b'!') => {
            c.kind = Kind::Label;
            i += 1;
        }
        _ => {}
    }
    if at(i) == Some(b'*') {
        c.indirect = true;
        i += 1;
    }
    if i >= s.len() {
        return None;
    }
    let (mut early_clobber, mut commutative) = (false, false);
    loop {
        match s[i] {
            b'&' if c.kind == Kind::Output && !early_clobber => early_clobber = true,
            b'%' if c.kind != Kind::Clobber && !commutative => commutative = true,
            b'&' | b'%' | b'#' | b'*' => return None,
            _ => break,
        }
        i += 1;
        if i >= s.len() {
            return None;
        }
    }
    let mut alternative = 0;
    while i < s.len() {
        match s[i] {
            b'{' => {
                let close = s[i + 1..].iter().position(|&b| b == b'}')?;
                i += close + 2;
            }
            b'0'..=b'9' => {
                let digits = s[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                let n = s[i..i + digits]
                    .iter()
                    .try_fold(0usize, |n, &d| {
                        n.checked_mul(10)?.checked_add(usize::from(d - b'0'))
                    })
                    .unwrap_or(usize::MAX);
                i += digits;
                let me = so_far.len() as i64;
                let tied = so_far.get_mut(n).filter(|o| o.kind == Kind::Output)?;
                if c.kind != Kind::Input {
                    return None;
                }
                if multiple {
                    let slot = tied.alternatives.get_mut(alternative)?;
                    if *slot != -1 {
                        return None;
                    }
                    *slot = me;
                } else {
                    if tied.matching_input != -1 && tied.matching_input != me {
                        return None;
                    }
                    tied.matching_input = me;
                }
            }
            b'|' => {
                alternative += 1;
                i += 1;
            }
            // A two-letter constraint (`^Wc`).
            b'^' => i += 3,
            // `@3abc`: a constraint of as many letters as the digit says.
            b'@' => {
                let n = at(i + 1).filter(u8::is_ascii_digit)? - b'0';
                i += 2 + usize::from(n);
            }
            _ => i += 1,
        }
    }
    // Past the end: LLVM reads beyond the string there.
    (i == s.len()).then_some(c)
}

/// The shape of an inline assembly call's result, for [`fits_call`].
#[derive(Clone, Copy)]
pub(super) enum Result {
    Void,
    Struct(usize),
    Other,
}

/// What LLVM's parser refuses of constraints `text` on a call of type `ret (params...)`
/// (`InlineAsm::verify`): its message, or nothing.
pub(super) fn fits_call(
    text: &[u8],
    ret: Result,
    params: usize,
    varargs: bool,
) -> Option<&'static str> {
    if varargs {
        return Some("inline asm cannot be variadic");
    }
    let Some(constraints) = parse(text) else {
        return Some("failed to parse constraints");
    };
    let (mut outputs, mut inputs, mut clobbers, mut indirect, mut labels) = (0, 0, 0, 0, 0);
    for c in &constraints {
        match c.kind {
            Kind::Output => {
                if inputs - indirect != 0 || clobbers != 0 || labels != 0 {
                    return Some(
                        "output constraint occurs after input, clobber or label constraint",
                    );
                }
                if !c.indirect {
                    outputs += 1;
                    continue;
                }
                indirect += 1;
                if clobbers != 0 {
                    return Some("input constraint occurs after clobber constraint");
                }
                inputs += 1;
            }
            Kind::Input => {
                if clobbers != 0 {
                    return Some("input constraint occurs after clobber constraint");
                }
                inputs += 1;
            }
            Kind::Clobber => clobbers += 1,
            Kind::Label => {
                if clobbers != 0 {
                    return Some("label constraint occurs after clobber constraint");
                }
                labels += 1;
            }
        }
    }
    match (outputs, ret) {
        (0, Result::Void) => {}
        (0, _) => return Some("inline asm without outputs must return void"),
        (1, Result::Struct(_)) => return Some("inline asm with one output cannot return struct"),
        (1, _) => {}
        (n, Result::Struct(elements)) if n == elements => {}
        _ => {
            return Some(
                "number of output constraints does not match number of return struct elements",
            );
        }
    }
    (params != inputs).then_some("number of input constraints does not match number of parameters")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_are_read_as_llvm_reads_them() {
        let kinds = |t: &[u8]| {
            parse(t).map(|cs| cs.iter().map(|c| (c.kind, c.indirect)).collect::<Vec<_>>())
        };
        assert_eq!(
            kinds(b"=r,*m,~{memory},!i"),
            Some(vec![
                (Kind::Output, false),
                (Kind::Input, true),
                (Kind::Clobber, false),
                (Kind::Label, false)
            ])
        );
        assert_eq!(
            kinds(b"=&r,0"),
            Some(vec![(Kind::Output, false), (Kind::Input, false)])
        );
        assert_eq!(kinds(b"=r|m,0|r").map(|k| k.len()), Some(2));
        for refused in [
            &b"r,"[..],
            b",r",
            b"r,,r",
            b"=",
            b"~r",
            b"{ax",
            b"0",
            b"=r,1",
            b"=&&r",
            b"#r",
            b"=r,0,0",
            b"^W",
        ] {
            assert!(
                parse(refused).is_none(),
                "{}",
                String::from_utf8_lossy(refused)
            );
        }
        assert_eq!(fits_call(b"=r,r", Result::Other, 1, false), None);
        assert!(fits_call(b"r", Result::Other, 1, false).is_some());
        assert!(fits_call(b"=r,=r", Result::Struct(3), 0, false).is_some());
        assert!(fits_call(b"~{ax},r", Result::Void, 1, false).is_some());
        assert!(fits_call(b"", Result::Void, 0, true).is_some());
    }
}
