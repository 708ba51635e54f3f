# ad hoc: summarises polls.sh's metrics.txt per scrape round: the decoder's data units, listener calls (polls) and
# records per poll, its producer's requests and records per request, and the lags of the decoder, notify-store and rules.
# "t" counts scrape rounds (2 per round), not seconds: a round took longer than 2 s under load, so read the ratios.
import sys, re, collections
d = collections.defaultdict(lambda: collections.defaultdict(float))
for line in open(sys.argv[1]):
    p = line.split(' ', 2); t = int(p[0]); s = p[1]; rest = p[2].rsplit(' ', 1); m, v = rest[0], rest[1]
    try: v = float(v)
    except: continue
    if v != v: continue
    if s == 'decoder' and m.startswith('decoder_data_units_total'): d[t]['du'] += v
    if s == 'decoder' and m.startswith('spring_kafka_listener_seconds_count'): d[t]['polls'] += v
    if s == 'decoder' and m.startswith('kafka_producer_request_total'): d[t]['req'] += v
    if s == 'decoder' and m.startswith('kafka_producer_record_send_total'): d[t]['rec'] += v
    if s == 'decoder' and m.startswith('kafka_consumer_fetch_manager_records_lag_max') and 'topic="uplinks.encoded"' in m: d[t]['dlag'] += v
    if s == 'notify' and m.startswith('kafka_consumer_fetch_manager_records_lag_max') and 'notify-store' in m and 'topic="data-units"' in m: d[t]['nlag'] += v
    if s == 'notify' and m.startswith('spring_kafka_listener_seconds_count') and 'notify-store' in m: d[t]['npolls'] += v
    if s == 'rules' and m.startswith('kafka_consumer_fetch_manager_records_lag_max') and 'StreamThread' in m and 'topic="data-units"' in m: d[t]['rlag'] += v
ts = sorted(d)
print("%4s %8s %7s %7s %8s %8s %9s %9s %8s %7s" % ("t","du/s","polls/s","poll","req/s","rec/req","declag","storelag","rulelag","npoll"))
for a, b in zip(ts, ts[1:]):
    A, B = d[a], d[b]; dt = b - a
    dp = B['polls']-A['polls']; dd = B['du']-A['du']; dr = B['req']-A['req']; dc = B['rec']-A['rec']; nn = B['npolls']-A['npolls']
    print("%4d %8d %7d %7.1f %8d %8.1f %9d %9d %8d %7.0f" % (b, dd/dt, dp/dt, dd/dp if dp else 0, dr/dt, dc/dr if dr else 0, B['dlag'], B['nlag'], B['rlag'], dd/nn if nn else 0))
