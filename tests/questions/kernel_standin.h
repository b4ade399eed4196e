// CUDA C++ kernels run on the CPU, for the tests' stand-in of CuPy's RawKernel
// (tests/questions/kernel_standin.py compiles a kernel's source with g++ after this
// header). It models what the bank's kernel exercises teach, not a whole GPU:
//
// - Blocks run one after another; a block's threads are fibers on one OS thread.
//   Each thread runs until it reaches __syncthreads(), a warp collective
//   (__shfl*_sync, __ballot_sync, __any_sync, __all_sync, __syncwarp) or its end,
//   in thread order or in reverse (hp::Launch::reverse). So a missing
//   __syncthreads() shows as a thread reading a value another has not written yet,
//   or has already overwritten: run both orders to see both.
// - __syncthreads() waits for every thread of the block that has not returned;
//   a warp collective waits for every lane its mask names, and a lane named in the
//   mask that has returned, or waits at __syncthreads() instead, is an error (a
//   hang or undefined behaviour on a GPU), as is a block where nobody can move.
// - __shared__ variables are static: one copy, shared by the block's threads. Each
//   is filled with 0xA5 bytes when the block's first thread reaches its declaration
//   (kernel_standin.py adds the call), as a GPU's shared memory starts with whatever
//   was there; extern __shared__ arrays are the launch's shared_mem bytes, 0xA5 too.
// - Atomics are plain read-modify-writes (one OS thread cannot interleave them).
//   A data race on global or shared memory between two plain accesses is not
//   seen: nothing is preempted between two synchronisation points.
// - Accesses are not checked here: kernel_standin.py runs each launch in a forked
//   child on guarded copies of the arrays, so one past an array faults there.
#pragma once

#include <ucontext.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};
typedef dim3 uint3;

namespace hp {

enum State { RUNNABLE, AT_BARRIER, AT_WARP, DONE };
enum WarpOp { SHUFFLE, BALLOT, SYNCWARP };

struct Fiber {
    ucontext_t context;
    State state;
    dim3 tid;
    int lane, warp;
    WarpOp op;
    unsigned int mask;
    int source;               // the lane whose value a shuffle returns
    unsigned long long value; // what this lane brings to the collective
    unsigned long long result;
};

struct Launch {
    dim3 grid, block, bid;
    std::vector<Fiber> fibers;
    std::vector<char> stacks;
    Fiber *current = nullptr;
    ucontext_t scheduler;
    std::function<void()> body;
    std::vector<unsigned char> dynamic_shared;
    unsigned long long block_serial = 0;
    std::vector<std::pair<void *, unsigned long long>> poisoned; // shared variable, block that filled it
    bool reverse = false;
    bool failed = false;
    char error[512] = {0};
};

inline Launch *&active() {
    static Launch *launch = nullptr;
    return launch;
}

inline Fiber *me() { return active()->current; }

inline void yield() {
    Launch *l = active();
    swapcontext(&l->current->context, &l->scheduler);
}

inline void record(Launch *l, const char *format, va_list args) {
    if (!l->failed) {
        l->failed = true;
        vsnprintf(l->error, sizeof l->error, format, args);
    }
}

// Ends the launch with a message, from the scheduler.
inline void refuse(Launch *l, const char *format, ...) {
    va_list args;
    va_start(args, format);
    record(l, format, args);
    va_end(args);
}

// Ends the launch with a message, from a thread, which is never resumed.
[[noreturn]] inline void fail(const char *format, ...) {
    Launch *l = active();
    va_list args;
    va_start(args, format);
    record(l, format, args);
    va_end(args);
    swapcontext(&l->current->context, &l->scheduler);
    abort();
}

inline unsigned long long warp_op(WarpOp op, unsigned int mask, int source, unsigned long long value) {
    Fiber *f = me();
    if (!(mask & (1u << f->lane)))
        fail("block (%u,%u,%u) thread (%u,%u,%u): a warp collective whose mask 0x%08x leaves out its own lane %d",
             active()->bid.x, active()->bid.y, active()->bid.z, f->tid.x, f->tid.y, f->tid.z, mask, f->lane);
    f->op = op;
    f->mask = mask;
    f->source = source;
    f->value = value;
    f->state = AT_WARP;
    yield();
    return f->result;
}

inline void kernel_entry() {
    Launch *l = active();
    l->body();
    l->current->state = DONE;
    swapcontext(&l->current->context, &l->scheduler);
    abort();
}

// Completes every warp collective whose lanes have all arrived; false when none could.
inline bool complete_warps(Launch *l) {
    bool progressed = false;
    size_t count = l->fibers.size();
    for (size_t base = 0; base < count; base += 32) {
        size_t lanes = std::min<size_t>(32, count - base);
        for (size_t i = 0; i < lanes; ++i) {
            Fiber &first = l->fibers[base + i];
            if (first.state != AT_WARP) continue;
            unsigned int mask = first.mask;
            bool ready = true;
            for (size_t j = 0; j < lanes; ++j) {
                if (!(mask & (1u << j))) continue;
                Fiber &other = l->fibers[base + j];
                if (other.state == DONE) {
                    refuse(l, "block (%u,%u,%u) warp %zu: lane %zu has returned, but a warp collective's mask 0x%08x "
                         "names it (undefined behaviour on a GPU: keep every named lane alive up to the collective)",
                         l->bid.x, l->bid.y, l->bid.z, base / 32, j, mask);
                    return false;
                }
                if (other.state != AT_WARP) { ready = false; break; }
                if (other.op != first.op || other.mask != mask) {
                    refuse(l, "block (%u,%u,%u) warp %zu: lanes %zu and %zu meet at different warp collectives",
                           l->bid.x, l->bid.y, l->bid.z, base / 32, i, j);
                    return false;
                }
            }
            if (!ready) continue;
            unsigned long long ballot = 0;
            for (size_t j = 0; j < lanes; ++j)
                if ((mask & (1u << j)) && l->fibers[base + j].value) ballot |= 1ull << j;
            for (size_t j = 0; j < lanes; ++j) {
                if (!(mask & (1u << j))) continue;
                Fiber &lane = l->fibers[base + j];
                if (first.op == BALLOT) {
                    lane.result = ballot;
                } else if (first.op == SHUFFLE) {
                    int source = lane.source;
                    bool present = source >= 0 && (size_t)source < lanes && (mask & (1u << source));
                    lane.result = present ? l->fibers[base + source].value : lane.value;
                }
                lane.state = RUNNABLE;
            }
            progressed = true;
        }
    }
    return progressed;
}

inline void run_block(Launch *l, size_t stack_bytes) {
    size_t count = l->fibers.size();
    for (size_t i = 0; i < count; ++i) {
        Fiber &f = l->fibers[i];
        f.state = RUNNABLE;
        f.tid = dim3(i % l->block.x, (i / l->block.x) % l->block.y, i / (l->block.x * l->block.y));
        f.lane = i % 32;
        f.warp = i / 32;
        getcontext(&f.context);
        f.context.uc_stack.ss_sp = l->stacks.data() + i * stack_bytes;
        f.context.uc_stack.ss_size = stack_bytes;
        f.context.uc_link = nullptr;
        makecontext(&f.context, kernel_entry, 0);
    }
    for (;;) {
        for (size_t k = 0; k < count; ++k) {
            Fiber &f = l->fibers[l->reverse ? count - 1 - k : k];
            if (f.state != RUNNABLE) continue;
            l->current = &f;
            swapcontext(&l->scheduler, &f.context);
            if (l->failed) return;
        }
        bool done = true, barrier = true;
        for (Fiber &f : l->fibers) {
            if (f.state != DONE) done = false;
            if (f.state != DONE && f.state != AT_BARRIER) barrier = false;
        }
        if (done) return;
        if (complete_warps(l)) continue;
        if (l->failed) return;
        if (!barrier) {
            refuse(l, "block (%u,%u,%u): no thread can move (some wait at __syncthreads(), others at a warp "
                      "collective): a deadlock on a GPU",
                   l->bid.x, l->bid.y, l->bid.z);
            return;
        }
        for (Fiber &f : l->fibers)
            if (f.state == AT_BARRIER) f.state = RUNNABLE;
    }
}

template <class... A, size_t... I>
void call_with(void (*kernel)(A...), void **args, std::index_sequence<I...>) {
    kernel(*static_cast<std::remove_cv_t<A> *>(args[I])...);
}

// The launch, as cuLaunchKernel takes it: args[i] points at parameter i's value.
template <class... A>
int launch(void (*kernel)(A...), dim3 grid, dim3 block, size_t shared_bytes, void **args, int reverse, char *error,
           int error_bytes) {
    const size_t stack_bytes = 64 * 1024;
    Launch l;
    l.grid = grid;
    l.block = block;
    l.reverse = reverse != 0;
    size_t threads = (size_t)block.x * block.y * block.z;
    l.fibers.resize(threads);
    l.stacks.resize(threads * stack_bytes);
    l.dynamic_shared.assign(shared_bytes, 0xA5);
    l.body = [kernel, args] { call_with(kernel, args, std::index_sequence_for<A...>{}); };
    active() = &l;
    for (unsigned z = 0; z < grid.z && !l.failed; ++z)
        for (unsigned y = 0; y < grid.y && !l.failed; ++y)
            for (unsigned x = 0; x < grid.x && !l.failed; ++x) {
                l.bid = dim3(x, y, z);
                ++l.block_serial;
                run_block(&l, stack_bytes);
            }
    active() = nullptr;
    snprintf(error, error_bytes, "%s", l.error);
    return l.failed ? 1 : 0;
}

inline void *dynamic_shared() { return active()->dynamic_shared.data(); }

// Fills a __shared__ variable with 0xA5 once per block: its first thread to get here does.
inline void poison_shared(void *address, size_t bytes) {
    Launch *l = active();
    for (auto &seen : l->poisoned) {
        if (seen.first != address) continue;
        if (seen.second == l->block_serial) return;
        seen.second = l->block_serial;
        memset(address, 0xA5, bytes);
        return;
    }
    l->poisoned.emplace_back(address, l->block_serial);
    memset(address, 0xA5, bytes);
}

} // namespace hp

#define threadIdx (hp::me()->tid)
#define blockIdx (hp::active()->bid)
#define blockDim (hp::active()->block)
#define gridDim (hp::active()->grid)
#define warpSize 32
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __shared__ static

inline void __syncthreads() {
    hp::me()->state = hp::AT_BARRIER;
    hp::yield();
}
inline void __syncwarp(unsigned int mask = 0xffffffffu) { hp::warp_op(hp::SYNCWARP, mask, 0, 0); }
inline void __threadfence() {}
inline void __threadfence_block() {}

template <class T>
inline T hp_shuffle(unsigned int mask, T value, int source) {
    static_assert(sizeof(T) <= 8, "a shuffle moves at most 8 bytes");
    unsigned long long bits = 0;
    memcpy(&bits, &value, sizeof(T));
    unsigned long long got = hp::warp_op(hp::SHUFFLE, mask, source, bits);
    T result;
    memcpy(&result, &got, sizeof(T));
    return result;
}
template <class T>
inline T __shfl_sync(unsigned int mask, T value, int lane, int width = 32) {
    int self = hp::me()->lane;
    return hp_shuffle(mask, value, (self & ~(width - 1)) + (lane & (width - 1)));
}
template <class T>
inline T __shfl_up_sync(unsigned int mask, T value, unsigned int delta, int width = 32) {
    int self = hp::me()->lane, base = self & ~(width - 1);
    int source = self - (int)delta;
    return hp_shuffle(mask, value, source < base ? self : source);
}
template <class T>
inline T __shfl_down_sync(unsigned int mask, T value, unsigned int delta, int width = 32) {
    int self = hp::me()->lane, base = self & ~(width - 1);
    int source = self + (int)delta;
    return hp_shuffle(mask, value, source >= base + width ? self : source);
}
template <class T>
inline T __shfl_xor_sync(unsigned int mask, T value, int lane_mask, int width = 32) {
    int self = hp::me()->lane, base = self & ~(width - 1);
    int source = self ^ lane_mask;
    return hp_shuffle(mask, value, source >= base + width ? self : source);
}
inline unsigned int __ballot_sync(unsigned int mask, int predicate) {
    return (unsigned int)hp::warp_op(hp::BALLOT, mask, 0, predicate != 0);
}
inline int __any_sync(unsigned int mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }
inline int __all_sync(unsigned int mask, int predicate) { return __ballot_sync(mask, predicate) == mask; }
inline unsigned int __activemask() {
    hp::Launch *l = hp::active();
    size_t base = (size_t)hp::me()->warp * 32;
    unsigned int mask = 0;
    for (size_t j = 0; j < 32 && base + j < l->fibers.size(); ++j)
        if (l->fibers[base + j].state != hp::DONE) mask |= 1u << j;
    return mask;
}

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x ? __builtin_clz((unsigned int)x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline unsigned int __brev(unsigned int x) {
    unsigned int r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
inline int __float_as_int(float x) { int i; memcpy(&i, &x, 4); return i; }
inline float __uint_as_float(unsigned int x) { float f; memcpy(&f, &x, 4); return f; }
inline unsigned int __float_as_uint(float x) { unsigned int i; memcpy(&i, &x, 4); return i; }
template <class T>
inline T __ldg(const T *p) { return *p; }

inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }

#define HP_MINMAX(T)                                        \
    inline T min(T a, T b) { return b < a ? b : a; }        \
    inline T max(T a, T b) { return a < b ? b : a; }
HP_MINMAX(int)
HP_MINMAX(unsigned int)
HP_MINMAX(long long)
HP_MINMAX(unsigned long long)
HP_MINMAX(float)
HP_MINMAX(double)
#undef HP_MINMAX

#define HP_ATOMIC(NAME, T, EXPR)          \
    inline T NAME(T *address, T v) {      \
        T old = *address;                 \
        *address = (EXPR);                \
        return old;                       \
    }
#define HP_ATOMIC_ALL(NAME, EXPR)                 \
    HP_ATOMIC(NAME, int, EXPR)                    \
    HP_ATOMIC(NAME, unsigned int, EXPR)           \
    HP_ATOMIC(NAME, unsigned long long, EXPR)
HP_ATOMIC_ALL(atomicAdd, old + v)
HP_ATOMIC(atomicAdd, float, old + v)
HP_ATOMIC(atomicAdd, double, old + v)
HP_ATOMIC(atomicSub, int, old - v)
HP_ATOMIC(atomicSub, unsigned int, old - v)
HP_ATOMIC_ALL(atomicExch, v)
HP_ATOMIC(atomicExch, float, v)
HP_ATOMIC_ALL(atomicMax, old < v ? v : old)
HP_ATOMIC(atomicMax, long long, old < v ? v : old)
HP_ATOMIC_ALL(atomicMin, v < old ? v : old)
HP_ATOMIC(atomicMin, long long, v < old ? v : old)
HP_ATOMIC_ALL(atomicAnd, old & v)
HP_ATOMIC_ALL(atomicOr, old | v)
HP_ATOMIC_ALL(atomicXor, old ^ v)
#undef HP_ATOMIC_ALL
#undef HP_ATOMIC

#define HP_CAS(T)                                           \
    inline T atomicCAS(T *address, T compare, T v) {        \
        T old = *address;                                   \
        if (old == compare) *address = v;                   \
        return old;                                         \
    }
HP_CAS(int)
HP_CAS(unsigned int)
HP_CAS(unsigned long long)
#undef HP_CAS
