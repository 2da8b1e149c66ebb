//! Record batches handed to Python through the Arrow C stream interface
//! (the `__arrow_c_stream__` PyCapsule protocol): pyarrow, Polars and
//! DuckDB take the buffers as they are, without a copy or a Python object
//! per value.

use std::sync::Mutex;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_schema::SchemaRef;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// Record batches waiting for Python to take them (once): a list made
/// already, or a reader that makes them as they are taken.
#[pyclass(module = "bitboards")]
pub struct ArrowStream {
    reader: Mutex<Option<Box<dyn RecordBatchReader + Send>>>,
}

impl ArrowStream {
    /// The stream of `batches`, all of `schema`.
    pub fn new(schema: SchemaRef, batches: Vec<RecordBatch>) -> ArrowStream {
        ArrowStream::from_reader(Box::new(RecordBatchIterator::new(
            batches.into_iter().map(Ok),
            schema,
        )))
    }

    /// The stream of what `reader` makes.
    pub fn from_reader(reader: Box<dyn RecordBatchReader + Send>) -> ArrowStream {
        ArrowStream {
            reader: Mutex::new(Some(reader)),
        }
    }

    /// The stream as an `ArrowArrayStream` capsule, once.
    pub fn export<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let reader = self
            .reader
            .lock()
            .map_err(|_| PyValueError::new_err("the stream's lock is poisoned"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("this Arrow stream was taken already"))?;
        PyCapsule::new_with_value(py, FFI_ArrowArrayStream::new(reader), c"arrow_array_stream")
    }
}

#[pymethods]
impl ArrowStream {
    /// The batches as an `ArrowArrayStream` capsule (the PyCapsule
    /// interface). A stream can be taken once; a request for another
    /// schema is ignored, as the protocol allows.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        self.export(py)
    }
}
