CREATE TABLE data_units (
    id          uuid PRIMARY KEY,
    uplink_id   uuid        NOT NULL,
    channel     text        NOT NULL,
    device_type text        NOT NULL,
    device_id   text        NOT NULL,
    measured_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    stored_at   timestamptz NOT NULL DEFAULT now(),
    body        jsonb       NOT NULL
);

-- Ids are UUIDv7 (time-ordered), so id order is time order and the cursor is the last id.
CREATE INDEX data_units_channel_device_id ON data_units (channel, device_id, id);
CREATE INDEX data_units_channel_id ON data_units (channel, id);
CREATE INDEX data_units_received_at ON data_units (received_at);

CREATE TABLE alarms (
    alarm_id     uuid PRIMARY KEY,
    last_event   uuid        NOT NULL,
    rule_id      text        NOT NULL,
    severity     text        NOT NULL,
    state        text        NOT NULL,
    acknowledged boolean     NOT NULL,
    channel      text        NOT NULL,
    device_id    text        NOT NULL,
    raised_at    timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    body         jsonb       NOT NULL
);

CREATE INDEX alarms_channel_state ON alarms (channel, state, alarm_id);
CREATE INDEX alarms_device ON alarms (channel, device_id, alarm_id);
