"""Marian's .npz model file, as Marian's cnpy writes it (browsermt/marian-dev src/3rd_party/cnpy,
src/common/io.cpp saveItemsNpz; docs/marian.md §7): a zip archive, every entry stored (no
compression), of NumPy v1 .npy arrays named as the .bin's items, the architecture last as
`special:model.yml`, 1-D int8 ('<i1'). What OPUS-MT distributes (`opus.*.npz.best-perplexity.npz`)
and what Attend's importer reads (core/src/import/marian_npz.h)."""
import struct
import zlib

from .marian_binary import FLOAT32, INT8

NPY_TYPES = {FLOAT32: ("<f4", 4), INT8: ("<i1", 1)}  # cnpy: '<' + map_type + word size


def npy_header(descr, shape):
    """cnpy's create_npy_header: the dict, padded with spaces so that the 10-byte preamble and it fill
    a multiple of 16 bytes (1 to 16 more bytes), the last of them a newline."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    text = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }"
    text += " " * (16 - (10 + len(text)) % 16)
    text = text[:-1] + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode()


def marian_npz(items):
    """The bytes of an .npz holding `items`, each (name, type code, shape, payload bytes without
    padding), in order: per item a local header (version 20, stored, no time, no extra field) and
    `name.npy`; then the central directory and the end record, as cnpy's npz_save writes them."""
    out, directory = bytearray(), bytearray()
    for name, code, shape, data in items:
        descr, size = NPY_TYPES[code]
        count = 1
        for d in shape:
            count *= d
        if len(data) != count * size:
            raise ValueError(f"{name}: {len(data)} bytes for shape {shape}")
        entry = npy_header(descr, shape) + data
        fname = (name + ".npy").encode()
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, zlib.crc32(entry), len(entry), len(entry),
                            len(fname), 0) + fname
        directory += struct.pack("<IH", 0x02014B50, 20) + local[4:30] + struct.pack("<HHHII", 0, 0, 0, 0, len(out)) + fname
        out += local + entry
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(items), len(items), len(directory), len(out), 0)
    return bytes(out + directory + end)
