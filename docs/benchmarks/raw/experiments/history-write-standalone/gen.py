import json, uuid, time, random, sys, datetime
variant = sys.argv[1]; batches=int(sys.argv[2]); size=int(sys.argv[3]); start_ms=int(sys.argv[4])
COLS="id, received_at, uplink_id, measured_at, decoded_at, schema_version, channel, device_type, device_id, measurements, attributes, measured_ns, received_ns, decoded_ns, uplink_digest"
RECORD="id uuid, received_at timestamptz, uplink_id uuid, measured_at timestamptz, decoded_at timestamptz, schema_version smallint, channel text, device_type text, device_id text, measurements jsonb, attributes jsonb, measured_ns smallint, received_ns smallint, decoded_ns smallint, uplink_digest bigint"
DEV="channel, device_id, device_type, id, received_at, uplink_id, measured_at, decoded_at, schema_version, measurements, attributes, measured_ns, received_ns, decoded_ns"
UPSERT=f"""INSERT INTO devices ({DEV}) SELECT {DEV} FROM r
ON CONFLICT (channel, device_id) DO UPDATE SET device_type = EXCLUDED.device_type, id = EXCLUDED.id,
 received_at = EXCLUDED.received_at, uplink_id = EXCLUDED.uplink_id, measured_at = EXCLUDED.measured_at, decoded_at = EXCLUDED.decoded_at,
 schema_version = EXCLUDED.schema_version, measurements = EXCLUDED.measurements, attributes = EXCLUDED.attributes, measured_ns = EXCLUDED.measured_ns,
 received_ns = EXCLUDED.received_ns, decoded_ns = EXCLUDED.decoded_ns
WHERE (devices.received_at, devices.measured_at, devices.id) < (EXCLUDED.received_at, EXCLUDED.measured_at, EXCLUDED.id)"""
fn, cast = ("json_to_recordset","json") if variant.startswith("json") else ("jsonb_to_recordset","jsonb")
probe = """LEFT JOIN LATERAL (SELECT 1 AS found FROM data_units d WHERE d.id = r.id
 AND d.received_at BETWEEN r.received_at - CAST('1 day' AS interval) AND r.received_at + CAST('1 day' AS interval) LIMIT 1) stored ON true
 WHERE stored.found IS NULL"""
if variant.endswith("noprobe"): probe=""
dev = f""", r AS (SELECT DISTINCT ON (p.channel, p.device_id) p.* FROM parsed p JOIN ins USING (id, received_at)
 ORDER BY p.channel, p.device_id, p.received_at DESC, p.measured_at DESC, p.id DESC), dev AS ({UPSERT})"""
if variant.endswith("nodev"): dev=""
def v7(ms):
    r = random.getrandbits(74)
    hi = (ms << 16) | (0x7 << 12) | (r >> 62)
    lo = (0b10 << 62) | (r & ((1<<62)-1))
    return str(uuid.UUID(int=(hi<<64)|lo))
def ts(ms, us):
    d = datetime.datetime.fromtimestamp(ms/1000, datetime.timezone.utc)
    return d.strftime('%Y-%m-%dT%H:%M:%S.') + '%06d' % (us) + 'Z'
n=0
out=sys.stdout
for b in range(batches):
    rows=[]
    for i in range(size):
        ms = start_ms + n//5; us=(ms%1000)*1000 + n%1000
        rows.append({"id":v7(ms),"received_at":ts(ms,us),"uplink_id":v7(ms),"measured_at":ts(ms,us),"decoded_at":ts(ms,us),
          "schema_version":1,"channel":"demo","device_type":"em300th","device_id":"dev-%d"%(n%1000),
          "measurements":{"temperature":27.1+(n%7),"humidity":55.5,"battery":92.0},"received_ns":123,"uplink_digest":random.getrandbits(62)})
        n+=1
    lit = json.dumps(rows).replace("'","''")
    out.write("BEGIN; SET LOCAL enable_seqscan = off;\n")
    out.write(f"""WITH parsed AS MATERIALIZED (SELECT {COLS} FROM {fn}(CAST('{lit}' AS {cast})) AS r({RECORD})),
ins AS (INSERT INTO data_units ({COLS}) SELECT {COLS} FROM parsed r {probe} ON CONFLICT (id, received_at) DO NOTHING RETURNING id, received_at)
{dev}
SELECT count(*) FROM ins;\nCOMMIT;\n""")
