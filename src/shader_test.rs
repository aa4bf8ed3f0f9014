//! The `.shader_test` scene runner: parses the format GL test suites use and runs it on a
//! `Context`.
