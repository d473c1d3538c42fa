"""Reading OpenAPI documents: load, resolve references, validate, parse into the model."""
