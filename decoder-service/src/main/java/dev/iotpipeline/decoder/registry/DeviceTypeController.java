package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.events.DeviceType;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Read side of the device-type registry. */
@RestController
class DeviceTypeController {

    private final DeviceTypeRegistry registry;

    DeviceTypeController(DeviceTypeRegistry registry) {
        this.registry = registry;
    }

    @GetMapping("/device-types")
    List<DeviceType> all() {
        return registry.all();
    }

    @GetMapping("/device-types/{deviceType}")
    DeviceType one(@PathVariable String deviceType) {
        return registry.find(deviceType).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
                "Device type '" + deviceType + "' is not registered"));
    }
}
