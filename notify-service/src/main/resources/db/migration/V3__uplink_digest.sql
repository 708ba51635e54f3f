-- The digest of what the sender said in the uplink a data unit came from (device type, port, payload, measured
-- time), from the data-units record's iot-uplink-digest header. A copy of a stored data unit (same id) with another
-- digest is a reused idempotency key carrying a different uplink: the store writer dead-letters it instead of
-- dropping it silently. Null for rows written before this column and for records without the header: those are
-- never called conflicts. Adding a nullable column rewrites no partition.
ALTER TABLE data_units ADD COLUMN uplink_digest bigint;
