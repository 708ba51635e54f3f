"""The broker's PRODUCE, FETCH and OFFSET_COMMIT requests completed within the first wave, from its request log (request-log.patch, IOT_REQUEST_LOG=DIR/req-N.log). Arguments: DIR N."""
import json, re, sys, datetime

from k6wave import first_wave
d, n = sys.argv[1], sys.argv[2]
_, release, _ = first_wave(d, n)
day = datetime.datetime.fromtimestamp(release/1000, datetime.timezone.utc).date()
rows = []
for line in open(f'{d}/req-{n}.log'):
    if '"PRODUCE"' not in line and '"FETCH"' not in line and '"OFFSET_COMMIT"' not in line: continue
    ts, thread, rest = line.split(' ', 2)
    h, m, s = ts.split(':')
    t = (datetime.datetime.combine(day, datetime.time(int(h), int(m), 0), datetime.timezone.utc).timestamp()*1000 + float(s)*1000) - release
    if t < -50 or t > 400: continue
    d = json.loads(rest[len('Completed request:'):])
    h = d['requestHeader']; k = h['requestApiKeyName']
    if k == 'PRODUCE':
        parts = [(p['index'], p['recordsSizeInBytes']) for td in d['request']['topicData'] for p in td['partitionData']]
        topics = [td['topicId'][:4] for td in d['request']['topicData']]
        what = f"{topics} {sum(b for _, b in parts)}B/{len(parts)}p"
    elif k == 'FETCH':
        what = f"maxWait {d['request'].get('maxWaitMs')}"
    else: what = ''
    rows.append((t, k, h['clientId'], d['connection'][-8:], d['totalTimeMs'], d['requestQueueTimeMs'], d['localTimeMs'], d.get('remoteTimeMs'), d['responseQueueTimeMs'], d['sendTimeMs'], what))
for r in sorted(rows):
    if r[1]=='FETCH' and r[4] > 100: continue
    print(f"{r[0]:7.1f} {r[1]:13} {r[2]:28} {r[3]:>8} total {r[4]:6.1f} q {r[5]:5.1f} local {r[6]:5.1f} remote {r[7]:5.1f} respq {r[8]:5.1f} send {r[9]:4.1f} {r[10]}")
