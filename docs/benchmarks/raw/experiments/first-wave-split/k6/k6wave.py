"""What every script here reads first: k6's samples of a run and its first wave."""
import gzip


def first_wave(d, n):
    """k6's POST samples of DIR/out-N (answer read, latency; epoch ms), the release (k6's earliest send) and the ms
    from the release to the last answer k6 read of a POST it sent within 1 s of it."""
    client = [tuple(map(float, l.split())) for l in gzip.open(f'{d}/out-{n}/run-1/posts.txt.gz', 'rt')]
    release = min(t - x for t, x in client)
    wave_end = max(t for t, x in client if t - x - release < 1000) - release
    return client, release, wave_end


def pct(values, f):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * f))]
