//! Any bytes must give a module or an error, never a panic; a module must write back unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = mergefn::parse_bytes(data.to_vec()) {
        assert_eq!(mergefn::write::to_string(&m).as_bytes(), data);
        let _ = mergefn::function_counts(&m);
    }
});
