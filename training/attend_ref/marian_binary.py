"""Marian's binary model file (.bin), as Marian's saveItems writes it (browsermt/marian-dev
src/common/binary.cpp; docs/marian.md §7): what Bergamot's WebAssembly reads, and what Attend's
importer (core/src/import/marian_binary.h) reads back."""
import struct

# Marian's type codes (src/common/types.h): a class bit ORed with the size in bytes.
INT8, FLOAT32, INTGEMM8 = 0x0101, 0x0404, 0x4101


def marian_binary(items):
    """The bytes of a .bin holding `items`, each (name, type code, shape, payload bytes), in order:
    version 1, the item count, each item's header, the NUL-terminated names, the int32 shapes, the
    padding count and the zero bytes that put the payloads on a 256-byte boundary, the payloads."""
    out = bytearray(struct.pack("<QQ", 1, len(items)))
    for name, code, shape, data in items:
        out += struct.pack("<QQQQ", len(name.encode()) + 1, code, len(shape), len(data))
    for name, _, _, _ in items:
        out += name.encode() + b"\0"
    for _, _, shape, _ in items:
        out += struct.pack(f"<{len(shape)}i", *shape)
    padding = ((len(out) + 8) // 256 + 1) * 256 - len(out) - 8
    out += struct.pack("<Q", padding) + bytes(padding)
    for _, _, _, data in items:
        out += data
    return bytes(out)


def model_yml_item(yml_text):
    """The "special:model.yml" item Marian appends: the YAML text and its NUL, as int8."""
    data = yml_text.encode() + b"\0"
    return ("special:model.yml", INT8, [len(data)], data)
