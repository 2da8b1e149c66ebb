//! A test fixture: see tests/compile_errors.rs and tests/ui/.
