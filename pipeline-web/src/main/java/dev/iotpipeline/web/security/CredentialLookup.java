package dev.iotpipeline.web.security;

/**
 * Credentials a service keeps beyond the configured ones (ingest's device registry), found by the SHA-256 of the
 * presented secret; a bean of this type is consulted when no configured credential matched.
 */
@FunctionalInterface
public interface CredentialLookup {

    /** The credential whose secret hashes to {@code sha256}, or null. */
    Credential find(byte[] sha256);
}
