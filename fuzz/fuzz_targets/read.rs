//! Any bytes must give a module or an error, never a panic; a module must write back unchanged,
//! every body it read must read again, and merging it, then spelling it out and writing it as
//! LLVM prints (`mergefn opt`), must not panic either and must give text that reads again:
//! what mergefn writes of a module it took is a module it takes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(mut m) = mergefn::parse_bytes(data.to_vec()) {
        assert_eq!(mergefn::write::to_string(&m).as_bytes(), data);
        let _ = mergefn::function_counts(&m);
        for (f, func) in m.functions.iter() {
            if func.body.is_some() {
                assert!(m.body(f).is_ok(), "a body read once must read again");
            }
        }
        mergefn::merge(&mut m, &mergefn::Options::default());
        let merged = mergefn::write::to_string(&m);
        if let Err(e) = mergefn::parse(merged.clone()) {
            panic!("merged output does not read: {e}\n{merged}");
        }
        m.spell_as_llvm_prints();
        let spelled = mergefn::write::to_string(&m);
        if let Err(e) = mergefn::parse(spelled.clone()) {
            panic!("spelled output does not read: {e}\n{spelled}");
        }
        // As `mergefn opt` writes it: headed as opt heads it, its comdats, attribute groups
        // and metadata as LLVM writes and numbers them.
        let mut as_opt = Vec::new();
        let style = mergefn::write::Style::AsOpt { module_id: "fuzz" };
        mergefn::write::write_to_as(&m, &mut as_opt, style).expect("a vector takes any write");
        let as_opt = String::from_utf8(as_opt).expect("text in, text out");
        if let Err(e) = mergefn::parse(as_opt.clone()) {
            panic!("output as opt writes it does not read: {e}\n{as_opt}");
        }
    }
});
