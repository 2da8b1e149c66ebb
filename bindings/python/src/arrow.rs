//! Record batches handed to Python through the Arrow C stream interface
//! (the `__arrow_c_stream__` PyCapsule protocol): pyarrow, Polars and
//! DuckDB take the buffers as they are, without a copy or a Python object
//! per value.

use std::sync::Mutex;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::SchemaRef;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// Record batches waiting for Python to take them (once).
#[pyclass(module = "bitboards")]
pub struct ArrowStream {
    schema: SchemaRef,
    batches: Mutex<Option<Vec<RecordBatch>>>,
}

impl ArrowStream {
    pub fn new(schema: SchemaRef, batches: Vec<RecordBatch>) -> ArrowStream {
        ArrowStream {
            schema,
            batches: Mutex::new(Some(batches)),
        }
    }
}

#[pymethods]
impl ArrowStream {
    /// The batches as an `ArrowArrayStream` capsule (the PyCapsule
    /// interface). A stream can be taken once.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema is the table's own; a request for another is ignored,
        // as the protocol allows.
        let _ = requested_schema;
        let batches = self
            .batches
            .lock()
            .map_err(|_| PyValueError::new_err("the stream's lock is poisoned"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("this Arrow stream was taken already"))?;
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), self.schema.clone());
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}
