package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.ingest.registry.DeviceRequests.CredentialRequest;
import dev.iotpipeline.ingest.registry.DeviceRequests.DeviceRequest;
import dev.iotpipeline.ingest.registry.DeviceRequests.PolicyRequest;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.validation.Fields;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The device registry's HTTP edge (admin token): checks each request and hands it to the {@link Registrar}. */
@RestController
@RequestMapping("/registry/{channel}")
class RegistryController {

    static final int MAX_PAGE = 1000;
    static final int MAX_ERRORS = 1000;

    /** A device as the API shows it: its credentials by id and validity, never their hashes. */
    record DeviceView(
            String channel,
            String deviceId,
            String deviceType,
            Map<String, String> labels,
            boolean enabled,
            List<CredentialView> credentials,
            Instant updatedAt) {

        static DeviceView of(RegisteredDevice device) {
            return new DeviceView(
                    device.channel(),
                    device.deviceId(),
                    device.deviceType(),
                    device.labels(),
                    device.enabled(),
                    device.credentials().stream()
                            .map(c -> new CredentialView(c.id(), c.createdAt(), c.expiresAt()))
                            .toList(),
                    device.updatedAt());
        }
    }

    record CredentialView(String id, Instant createdAt, Instant expiresAt) {}

    /** A new credential: the secret only when the registry generated it, and only in this answer. */
    record IssuedView(String id, String secret, DeviceView device) {}

    /** A page of a channel's devices; {@code next} is the {@code after} of the following page, null on the last. */
    record Page(List<DeviceView> items, int total, String next) {}

    record PolicyView(String channel, String unknownDevices, Instant updatedAt) {}

    private final DeviceRegistry registry;
    private final Registrar registrar;
    private final DeviceImport imports;

    RegistryController(DeviceRegistry registry, Registrar registrar, DeviceImport imports) {
        this.registry = registry;
        this.registrar = registrar;
        this.imports = imports;
    }

    @PutMapping(path = "/devices/{deviceId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<DeviceView> put(
            @PathVariable String channel, @PathVariable String deviceId, @RequestBody DeviceRequest request) {
        DeviceRequests.requireChannel(channel);
        DeviceRequests.requireDeviceId(deviceId);
        DeviceRequests.requireDevice(request);
        var written = registrar.put(channel, deviceId, request);
        return ResponseEntity.status(written.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(DeviceView.of(written.device()));
    }

    @GetMapping("/devices/{deviceId}")
    DeviceView get(@PathVariable String channel, @PathVariable String deviceId) {
        return DeviceView.of(registrar.requireDevice(channel, deviceId));
    }

    @DeleteMapping("/devices/{deviceId}")
    ResponseEntity<Void> delete(@PathVariable String channel, @PathVariable String deviceId) {
        registrar.delete(channel, deviceId);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/devices")
    Page list(
            @PathVariable String channel,
            @RequestParam(required = false) String after,
            @RequestParam(defaultValue = "100") int limit) {
        DeviceRequests.requireChannel(channel);
        if (limit < 1 || limit > MAX_PAGE) {
            throw Fields.invalid("limit", "must be between 1 and " + MAX_PAGE);
        }
        var page = registry.page(channel, after, limit + 1);
        var items = page.stream().limit(limit).map(DeviceView::of).toList();
        var next = page.size() > limit ? items.getLast().deviceId() : null;
        return new Page(items, registry.count(channel), next);
    }

    @PostMapping(path = "/devices/{deviceId}/credentials")
    ResponseEntity<IssuedView> issue(
            @PathVariable String channel,
            @PathVariable String deviceId,
            @RequestBody(required = false) CredentialRequest request) {
        var credential = request == null ? new CredentialRequest(null, null) : request;
        if (credential.secret() != null) {
            DeviceRequests.requireSecret("secret", credential.secret());
        }
        DeviceRequests.requireOverlap(credential.overlapSeconds());
        var issued = registrar.issue(channel, deviceId, credential);
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(new IssuedView(issued.id(), issued.secret(), DeviceView.of(issued.device())));
    }

    @DeleteMapping("/devices/{deviceId}/credentials/{credentialId}")
    ResponseEntity<Void> revoke(
            @PathVariable String channel, @PathVariable String deviceId, @PathVariable String credentialId) {
        registrar.revoke(channel, deviceId, credentialId);
        return ResponseEntity.noContent().build();
    }

    /**
     * A bulk import, streamed: 200 with the counts when every line was applied; a 422 problem with the same counts
     * and each failed line's number and cause when some were not (the others were applied), the first
     * {@value #MAX_ERRORS} of them listed and the rest counted in {@code errorsOmitted}.
     */
    @PostMapping(
            path = "/import",
            consumes = {"text/csv", "application/x-ndjson"})
    ResponseEntity<?> importDevices(@PathVariable String channel, HttpServletRequest request) throws IOException {
        DeviceRequests.requireChannel(channel);
        registrar.requireKnownChannel(channel);
        var format = MediaType.parseMediaType(request.getContentType())
                        .isCompatibleWith(MediaType.parseMediaType(DeviceImport.Format.CSV.mediaType))
                ? DeviceImport.Format.CSV
                : DeviceImport.Format.NDJSON;
        var report = registrar.importDevices(channel, imports.parse(request.getInputStream(), format));
        if (report.errors().isEmpty()) {
            return ResponseEntity.ok(report);
        }
        var problem = Problems.detail(
                HttpStatus.UNPROCESSABLE_CONTENT,
                "import-errors",
                report.errors().size() + " of the import's lines were not applied (the others were): see errors");
        problem.setProperty("lines", report.lines());
        problem.setProperty("created", report.created());
        problem.setProperty("updated", report.updated());
        problem.setProperty("unchanged", report.unchanged());
        // The first errors say what is wrong with an import; a million of them would only make the answer huge.
        problem.setProperty(
                "errors",
                report.errors().subList(0, Math.min(MAX_ERRORS, report.errors().size())));
        problem.setProperty("errorsOmitted", Math.max(0, report.errors().size() - MAX_ERRORS));
        return ResponseEntity.unprocessableContent()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    @GetMapping("/policy")
    PolicyView policy(@PathVariable String channel) {
        DeviceRequests.requireChannel(channel);
        var policy = registry.policy(channel);
        return policy == null
                ? new PolicyView(channel, ChannelPolicy.OPEN, null)
                : new PolicyView(channel, policy.unknownDevices(), policy.updatedAt());
    }

    @PutMapping(path = "/policy", consumes = MediaType.APPLICATION_JSON_VALUE)
    PolicyView setPolicy(@PathVariable String channel, @RequestBody PolicyRequest request) {
        DeviceRequests.requireChannel(channel);
        var policy = registrar.setPolicy(channel, DeviceRequests.requirePolicy(request));
        return new PolicyView(channel, policy.unknownDevices(), policy.updatedAt());
    }
}
