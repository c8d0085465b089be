"""The catalogue import (docs/catalogue.md): reading a catalogue file as a stream
(catalogue_stream.py), writing it a batch at a time (importer.py, import_batch.py,
import_update.py) and the derived pass that follows (derived.py: previews, colours,
vectors).
"""
