"""anonsql: anonymize warehouse tables where they live."""

__version__ = "0.1.0"
