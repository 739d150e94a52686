# Cython declarations of the encoders of boards as observations (encode.h).
from libc.stdint cimport int8_t, uint8_t

cdef extern from "encode.h" nogil:
    enum:
        BG_ENC_TESAURO
        BG_ENC_OPENSPIEL
        BG_ENC_PGX
        BG_ENC_NET
        BG_ENC_KINDS
    int bg_enc_size(int kind)
    int bg_encode(int kind, const int8_t *b, int seat, int d1, int d2,
                  const uint8_t *left, float *out)
