/*
 * The integer kernels of nn/quant.h on every target this CPU runs, over
 * seeded random nets and inputs: prints one line a case (the output sums'
 * bits and a hash of the first-layer sums), the same whatever the target.
 * .ci/run builds it for x86-64 and for arm64 (run under qemu-aarch64) and
 * compares the lines, so NEON is held to the answers of the other targets.
 *
 *     cc -O2 -ffp-contract=off -Isrc/bgcore .ci/quant_targets.c -lm && ./a.out
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nn.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void)   /* splitmix64, upper half */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static int16_t rnd16(int bound) { return (int16_t)((int)(rnd() % (2u * bound + 1)) - bound); }

#define NIN 64
#define CASES 40

int main(void)
{
    static const int shapes[][2] = {{32, 0}, {64, 8}, {96, 0}, {256, 32}, {512, 32}, {160, 16},
                                    {128, 8}};
    int targets[8], nt = 0, t, s, c, i, j;
    for (t = BG_Q_PLAIN; t <= BG_Q_NEON; t++) if (bg_q_has(t)) targets[nt++] = t;
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
        int hpad = shapes[s][0], mid = shapes[s][1], rows = mid ? mid : BG_Q_OUTROWS;
        int16_t *w1 = malloc(sizeof(int16_t) * NIN * hpad), *b1 = malloc(sizeof(int16_t) * hpad);
        int16_t *wd = malloc(sizeof(int16_t) * rows * hpad);
        float bd[BG_NN_MAXMID], w2[BG_NN_NOUT * BG_NN_MAXMID], b2[BG_NN_NOUT], s1[BG_NN_MAXH];
        bg_qnet q;
        /* |b1| + 8 inputs of up to 3000 stays in int16 only modulo wrapping: the sums
         * may wrap in between, and must come out equal anyway */
        for (i = 0; i < NIN * hpad; i++) w1[i] = rnd16(3000);
        for (i = 0; i < hpad; i++) b1[i] = rnd16(3000);
        for (i = 0; i < rows * hpad; i++) wd[i] = rnd16(400);
        for (i = 0; i < rows; i++) bd[i] = (float)rnd16(1000) / 1000.0f;
        for (i = 0; i < BG_NN_NOUT * rows; i++) w2[i] = (float)rnd16(1000) / 700.0f;
        for (i = 0; i < BG_NN_NOUT; i++) b2[i] = (float)rnd16(1000) / 1000.0f;
        for (i = 0; i < hpad; i++) s1[i] = 1.0f / (float)(1 << (9 + rnd() % 4));   /* per unit */
        memset(&q, 0, sizeof q);
        q.hpad = hpad; q.mid = mid; q.drows = rows;
        q.crelu = mid && s % 2;          /* the clipped ReLU in some nets with a middle layer */
        q.top = 2048;
        q.s1 = s1; q.s2 = 1.0f / (float)(1 << (BG_Q_HBITS + 9));
        q.w1 = w1; q.b1 = b1; q.wd = wd; q.bd = bd; q.w2 = w2; q.b2 = b2;
        for (c = 0; c < CASES; c++) {
            int16_t idx[24];
            float val[24];
            int n = 1 + (int)(rnd() % 24);
            char line[8][256];
            for (i = 0; i < n; i++) {
                idx[i] = (int16_t)(rnd() % NIN);
                val[i] = (rnd() & 3) ? 1.0f : -1.0f;
            }
            for (j = 0; j < nt; j++) {
                int16_t acc[BG_NN_MAXH];
                float out[BG_NN_NOUT];
                uint32_t bits[BG_NN_NOUT], hash = 2166136261u;
                bg_q_set_target(targets[j]);
                bg_q_accumulate(&q, q.b1, idx, val, n, acc);
                for (i = 0; i < hpad; i++) hash = (hash ^ (uint16_t)acc[i]) * 16777619u;
                bg_q_sums(&q, q.b1, idx, val, n, out);
                memcpy(bits, out, sizeof bits);
                snprintf(line[j], sizeof line[j], "shape %d case %d: acc %08x sums %08x %08x %08x %08x %08x",
                         s, c, hash, bits[0], bits[1], bits[2], bits[3], bits[4]);
                if (j && strcmp(line[j], line[0])) {
                    fprintf(stderr, "target %d differs from target %d:\n%s\n%s\n", targets[j],
                            targets[0], line[j], line[0]);
                    return 1;
                }
            }
            puts(line[0]);
        }
        free(w1); free(b1); free(wd);
    }
    fprintf(stderr, "targets compared:");
    for (j = 0; j < nt; j++) fprintf(stderr, " %d", targets[j]);
    fprintf(stderr, "\n");
    return 0;
}
