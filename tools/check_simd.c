/*
 * Checks the SIMD board scan and side swap of movegen.h against the plain C
 * fallback on random boards.  Build it once with SIMD and once without, for
 * each architecture, e.g. on x86-64 and under qemu for AArch64:
 *
 *   cc -O2 -Isrc/bgcore tools/check_simd.c -o /tmp/simd && /tmp/simd
 *   aarch64-linux-gnu-gcc -O2 -static -Isrc/bgcore tools/check_simd.c -o /tmp/simd-arm \
 *       && qemu-aarch64 /tmp/simd-arm
 *
 * The reference is the header's own portable code (bg_scan_plain, bg_swap).
 */
#include <stdio.h>
#include "movegen.h"

static uint64_t state = 88172645463325252ULL;
static uint64_t next(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }

int main(void)
{
    long i, bad = 0;
    for (i = 0; i < 2000000; i++) {
        int8_t b32[32], s_simd[32], s_ref[32];
        bg_scan_t a, c;
        int p, spread = (int)(next() % 3);
        memset(b32, 0, sizeof b32);
        for (p = 0; p < BG_NPTS; p++) {
            uint64_t x = next();
            if (spread == 0) b32[p] = (int8_t)((int)(x % 31) - 15);          /* any value in range */
            else if (spread == 1) b32[p] = (int8_t)((int)(x % 7) - 3);       /* realistic */
            else b32[p] = (int8_t)(x & 0xFF);                                /* anything at all */
        }
        bg_scan(b32, &a);
        bg_scan_plain(b32, &c);
        if (a.own != c.own || a.closed != c.closed || a.out_of_range != c.out_of_range ||
            (!c.out_of_range && (a.own_total != c.own_total || a.opp_total != c.opp_total ||
                                 a.outside != c.outside))) {
            if (bad++ < 5) printf("scan differs at case %ld\n", i);
        }
        bg_swap32(b32, s_simd);
        bg_swap(b32, s_ref);
        if (memcmp(s_simd, s_ref, BG_NPTS) != 0 || s_simd[26] || s_simd[31]) {
            if (bad++ < 5) printf("swap differs at case %ld\n", i);
        }
    }
#if defined(BG_SSE2)
    printf("SSE2: ");
#elif defined(BG_NEON)
    printf("NEON: ");
#else
    printf("plain C: ");
#endif
    printf("%ld mismatches in %ld boards\n", bad, i);
    return bad != 0;
}
