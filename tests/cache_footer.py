"""Reading and forging an epoch cache's footer (io/test_epoch_cache.py, stream/test_stream.py)."""

import json
import zlib

from perceptrons.io import cache as cache_module


def footer_of(raw):
    length, _crc, _zero, _end = cache_module._TRAILER.unpack_from(raw, len(raw) - cache_module._TRAILER.size)
    start = len(raw) - cache_module._TRAILER.size - length
    return json.loads(raw[start : start + length]), start


def with_footer(raw, footer):
    """``raw`` with its footer replaced by ``footer``, checksum recomputed (a forged file)."""
    _, start = footer_of(raw)
    text = json.dumps(footer).encode() if isinstance(footer, dict) else footer
    return raw[:start] + text + cache_module._TRAILER.pack(len(text), zlib.crc32(text), 0, cache_module.END_MAGIC)
