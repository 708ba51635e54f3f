-- The device registry as notify mirrors it from the compacted devices topic, which ingest owns: what GET
-- /devices/registered lists, each row joined with the devices table for when that device was last heard. Only the
-- number of a device's credentials is kept, never their hashes: secrets stay with ingest.
CREATE TABLE registered_devices (
    channel     text        NOT NULL,
    device_id   text        NOT NULL,
    device_type text,
    labels      jsonb       NOT NULL,
    enabled     boolean     NOT NULL,
    credentials integer     NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (channel, device_id)
);
