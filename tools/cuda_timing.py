"""Timing on a CUDA device the way `tailor bench` times: the median of 7 batches of back-to-back
calls, each batch timed with CUDA events, about 20 ms a batch. Shared by the PyTorch reference
scripts; `torch` is passed in so that callers may import it late."""
import statistics


def time_batches(torch, fn, batches=7, budget_s=0.02):
    fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    stop.record()
    stop.synchronize()
    once_s = max(start.elapsed_time(stop) / 1e3, 1e-6)
    calls = max(1, int(budget_s / once_s))
    times = []
    for _ in range(batches):
        start.record()
        for _ in range(calls):
            fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3 / calls)
    return statistics.median(times)
