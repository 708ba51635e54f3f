-- Data units move to a table partitioned by day of received_at, so retention drops whole partitions and a time
-- range reads only its days. The row keeps each field once: the columns, plus measurements and attributes as
-- jsonb, instead of the whole event again in a body column. Every row of the old table is copied.
ALTER TABLE data_units RENAME TO data_units_v1;
ALTER INDEX data_units_pkey RENAME TO data_units_v1_pkey;
ALTER INDEX data_units_channel_device_id RENAME TO data_units_v1_channel_device_id;
ALTER INDEX data_units_channel_id RENAME TO data_units_v1_channel_id;
ALTER INDEX data_units_received_at RENAME TO data_units_v1_received_at;

CREATE TABLE data_units (
    id             uuid        NOT NULL,
    received_at    timestamptz NOT NULL,
    uplink_id      uuid        NOT NULL,
    measured_at    timestamptz NOT NULL,
    decoded_at     timestamptz,
    schema_version smallint    NOT NULL,
    channel        text        NOT NULL,
    device_type    text        NOT NULL,
    device_id      text        NOT NULL,
    measurements   jsonb       NOT NULL,
    attributes     jsonb,
    -- PostgreSQL keeps microseconds; the nanoseconds beyond them (0-999) of a time that had them, else null.
    measured_ns    smallint,
    received_ns    smallint,
    decoded_ns     smallint,
    -- A replay of a data unit has its received_at; a client's retry of an uplink (same id, received again) is
    -- recognised by the store writer within a day of the first copy. A unique index of a partitioned table must
    -- contain the partition key.
    PRIMARY KEY (id, received_at)
) PARTITION BY RANGE (received_at);

-- Pages are in id (time) order; the channel index carries received_at so a count over a time range reads the
-- index alone.
CREATE INDEX data_units_channel_device_id ON data_units (channel, device_id, id);
CREATE INDEX data_units_channel_id ON data_units (channel, id) INCLUDE (received_at);

-- Rows outside every daily partition (received long before the oldest or after the newest) land here; the
-- service moves them into their day when it creates that day's partition.
CREATE TABLE data_units_default PARTITION OF data_units DEFAULT;

-- One partition per UTC day from the oldest row to three days ahead; the service keeps creating them ahead.
DO $$
DECLARE
    first_day date := coalesce((SELECT min(received_at) FROM data_units_v1) AT TIME ZONE 'UTC',
                               now() AT TIME ZONE 'UTC')::date;
    last_day  date := (now() AT TIME ZONE 'UTC')::date + 3;
    day       date;
BEGIN
    day := first_day;
    WHILE day <= last_day LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF data_units FOR VALUES FROM (%L) TO (%L)',
                       'data_units_p' || to_char(day, 'YYYYMMDD'),
                       day::timestamp AT TIME ZONE 'UTC', (day + 1)::timestamp AT TIME ZONE 'UTC');
        day := day + 1;
    END LOOP;
END $$;

-- The times as the events carried them: microseconds in the column (truncated, as the store writer does), the
-- nanoseconds beyond them apart.
CREATE FUNCTION pg_temp.micros(t text) RETURNS timestamptz IMMUTABLE LANGUAGE sql
    AS $$ SELECT regexp_replace(t, '(\.\d{6})\d+', '\1')::timestamptz $$;
CREATE FUNCTION pg_temp.nanos(t text) RETURNS smallint IMMUTABLE LANGUAGE sql
    AS $$ SELECT nullif(rpad(coalesce(substring(t FROM '\.\d{6}(\d{1,3})'), '0'), 3, '0')::smallint, 0) $$;

INSERT INTO data_units (id, received_at, uplink_id, measured_at, decoded_at, schema_version, channel, device_type,
                        device_id, measurements, attributes, measured_ns, received_ns, decoded_ns)
SELECT id, pg_temp.micros(body ->> 'receivedAt'), uplink_id, pg_temp.micros(body ->> 'measuredAt'),
       pg_temp.micros(body ->> 'decodedAt'), coalesce((body ->> 'schemaVersion')::smallint, 1), channel, device_type,
       device_id, coalesce(body -> 'measurements', '{}'::jsonb), nullif(body -> 'attributes', '{}'::jsonb),
       pg_temp.nanos(body ->> 'measuredAt'), pg_temp.nanos(body ->> 'receivedAt'), pg_temp.nanos(body ->> 'decodedAt')
FROM data_units_v1;

-- The newest data unit of every device (last received; of one uplink, the last measured): what a dashboard
-- shows first, kept by the store writer as data arrives, so it never scans the history.
CREATE TABLE devices (
    channel        text        NOT NULL,
    device_id      text        NOT NULL,
    device_type    text        NOT NULL,
    id             uuid        NOT NULL,
    received_at    timestamptz NOT NULL,
    uplink_id      uuid        NOT NULL,
    measured_at    timestamptz NOT NULL,
    decoded_at     timestamptz,
    schema_version smallint    NOT NULL,
    measurements   jsonb       NOT NULL,
    attributes     jsonb,
    measured_ns    smallint,
    received_ns    smallint,
    decoded_ns     smallint,
    PRIMARY KEY (channel, device_id)
);

CREATE INDEX devices_channel_received_at ON devices (channel, received_at DESC, id DESC);

INSERT INTO devices
SELECT DISTINCT ON (channel, device_id) channel, device_id, device_type, id, received_at, uplink_id, measured_at,
       decoded_at, schema_version, measurements, attributes, measured_ns, received_ns, decoded_ns
FROM data_units
ORDER BY channel, device_id, received_at DESC, measured_at DESC, id DESC;

DROP TABLE data_units_v1;

-- Cleared alarms are deleted after their own retention; this finds them without reading the active ones.
CREATE INDEX alarms_cleared_updated_at ON alarms (updated_at) WHERE state = 'CLEARED';

ANALYZE data_units;
ANALYZE devices;
