"""Buffers handed to CTranslate2 without numpy (the array interface)."""

import ctypes


class ArrayView:
    """A buffer seen by CTranslate2 as an array (the array interface), so that no numpy is
    needed to hand it features or to copy its own outputs. The buffer must outlive the
    StorageView made from it."""

    def __init__(self, buffer, shape, typestr="<f4"):
        self.buffer = buffer
        address = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer)) if len(buffer) else 0
        self.__array_interface__ = {"shape": tuple(shape), "typestr": typestr, "data": (address, False), "version": 3}


def repeated(storage, count):
    """A copy of a (1, …) StorageView with its one item repeated `count` times (a batch)."""
    interface = storage.__array_interface__
    shape = list(interface["shape"])
    size = int(interface["typestr"][2:])
    for extent in shape:
        size *= extent
    address = interface["data"][0]
    buffer = bytearray(size * count)
    base = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer))
    for index in range(count):
        ctypes.memmove(base + index * size, address, size)
    shape[0] *= count
    return ArrayView(buffer, shape, interface["typestr"])
