package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.IngestProperties;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;

/** Every test of {@link UplinkApiTest} with the lean path turned off: both edges answer alike. */
@WebMvcTest(
        properties = {
            "iot.security.device-keys[0].channel=north",
            "iot.security.device-keys[0].key=device-secret",
            "iot.security.admin-tokens[0]=admin-secret",
            "ingest.webhooks.device-types[the-things-products/the-things-uno]=em300th",
            "ingest.device-path.lean=false"
        })
class UplinkApiMvcPathTest extends UplinkApiTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableConfigurationProperties(IngestProperties.class)
    static class MvcService extends UplinkApiTest.Service {}

    UplinkApiMvcPathTest() {
        lean = false;
    }
}
