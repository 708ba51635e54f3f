package dev.iotpipeline.web.security;

import java.util.Set;

/**
 * Who sent a request, after its bearer secret matched: a device key, a dashboard token or an admin token.
 * {@code id} is a prefix of the secret's hash, safe to log; {@code channels == null} means every channel.
 */
public sealed interface Credential {

    String id();

    Role role();

    Set<String> channels();

    /** Whether this credential may act on {@code channel}; an admin token may act on every channel. */
    default boolean allows(String channel) {
        return channels() == null || channels().contains(channel);
    }

    /** The three roles; what each may do is in SECURITY.md. */
    enum Role {
        DEVICE("device key"),
        DASHBOARD("dashboard token"),
        ADMIN("admin token");

        private final String label;

        Role(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * A device key, which may send uplinks to its channels at {@code ratePerSecond} when set, for any device there
     * ({@code deviceId == null}), or one registered device's credential, which may send only as that device.
     */
    record Device(String id, Set<String> channels, Double ratePerSecond, String deviceId) implements Credential {

        /** A channel key: it speaks for every device of its channels. */
        public Device(String id, Set<String> channels, Double ratePerSecond) {
            this(id, channels, ratePerSecond, null);
        }

        @Override
        public Role role() {
            return Role.DEVICE;
        }
    }

    /** A dashboard token: may read history, alarms and the live feed of its channels, and the configuration. */
    record Dashboard(String id, Set<String> channels) implements Credential {

        @Override
        public Role role() {
            return Role.DASHBOARD;
        }
    }

    /** An admin token: may change the pipeline (registry, device types, rules, re-drive) and read everything. */
    record Admin(String id) implements Credential {

        @Override
        public Role role() {
            return Role.ADMIN;
        }

        @Override
        public Set<String> channels() {
            return null;
        }
    }
}
