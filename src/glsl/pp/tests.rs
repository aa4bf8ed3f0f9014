//! Tests of the whole preprocessor through `preprocess`.
