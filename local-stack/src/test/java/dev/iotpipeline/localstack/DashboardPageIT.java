package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard page in a real headless Chromium: the devices the history holds are listed on open (GET /devices),
 * data posted by devices appears live, a selected device is charted from GET /data-units/aggregate and extended
 * live, and an alarm raised by a rule is acknowledged from the page. Needs
 * Debian's chromium and chromium-driver (the test command installs them).
 */
class DashboardPageIT {

    private static final String HOT = "{\"deviceId\":\"%s\",\"payloadHex\":\"01755C03673401046865\"}";
    private static final String COOL = "{\"deviceId\":\"%s\",\"payloadHex\":\"0175640367C800046850\"}";

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);
    private WebDriver browser;

    @BeforeEach
    void openBrowser() {
        var chromium = Path.of(System.getenv().getOrDefault("CHROMIUM_BIN", "/usr/bin/chromium"));
        var driver = Path.of(System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver"));
        assertThat(Files.isExecutable(chromium) && Files.isExecutable(driver))
                .as("Chromium and its driver at %s and %s (apt-get install chromium chromium-driver)", chromium, driver)
                .isTrue();
        var options = new ChromeOptions()
                .setBinary(chromium.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu");
        var service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void shouldShowUplinksLiveAndAcknowledgeAnAlarmFromThePage() {
        var channel = "page-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(client.createRule("""
                {"name":"greenhouse too hot","filter":{"channel":"%s"},"condition":"temperature > 30","severity":"MAJOR"}
                """.formatted(channel)).statusCode()).isEqualTo(201);

        // given the page open with a dashboard token, connected
        browser.get(stack.notifyUrl() + "/#token=" + PipelineClient.DASHBOARD_TOKEN + "&channel=" + channel);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> browser.findElement(By.id("status")).getText().equals("live"));

        // when two devices post, one of them hot
        client.postUplink(channel, "em300th", COOL.formatted("cool-1"));
        client.postUplink(channel, "em300th", COOL.formatted("cool-1"));
        client.postUplink(channel, "em300th", HOT.formatted("hot-1"));

        // then both devices appear in the live table with their readings and counts
        await().atMost(Duration.ofSeconds(30))
                .until(() -> text("#devices tr[data-device='cool-1'] .count").equals("2")
                        && text("#devices tr[data-device='hot-1'] .count").equals("1"));
        assertThat(text("#devices tr[data-device='hot-1'] .reading")).contains("temperature 30.8");
        assertThat(text("#unit-count")).isEqualTo("3 data units since opened");

        // and the hot device's alarm is listed as active, with an acknowledge button that works
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !browser.findElements(By.cssSelector("#alarms tr[data-device='hot-1'] button.acknowledge"))
                        .isEmpty());
        var row = browser.findElement(By.cssSelector("#alarms tr[data-device='hot-1']"));
        var alarmId = row.getDomAttribute("data-alarm");
        assertThat(row.getText()).contains("MAJOR", "greenhouse too hot");
        row.findElement(By.cssSelector("button.acknowledge")).click();

        await().atMost(Duration.ofSeconds(30))
                .until(() -> "true"
                        .equals(browser.findElement(By.cssSelector("#alarms tr[data-alarm='" + alarmId + "']"))
                                .getDomAttribute("data-acknowledged")));
        assertThat(text("#alarms tr[data-alarm='" + alarmId + "']")).contains("acknowledged");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> PipelineClient.json(
                                client.getHistory("/alarms/" + alarmId).body())
                        .get("acknowledged")
                        .asBoolean());
    }

    @Test
    void shouldListStoredDevicesOnOpenThenChartTheSelectedDeviceFromTheAggregateAndExtendItLive() {
        var channel = "open-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(client.createRule("""
                {"name":"greenhouse too hot","filter":{"channel":"%s"},"condition":"temperature > 30","severity":"MAJOR"}
                """.formatted(channel)).statusCode()).isEqualTo(201);

        // given readings of one device measured over the last hours, two of them in one 15-minute bucket, and an
        // alarm of another device, stored before the page opens
        var hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(3, ChronoUnit.HOURS);
        client.postUplink(channel, "em300th", em300th("early-1", 200, 40, hour.plusSeconds(60)));
        client.postUplink(channel, "em300th", em300th("early-1", 220, 44, hour.plusSeconds(120)));
        client.postUplink(channel, "em300th", em300th("early-1", 210, 42, hour.plusSeconds(3660)));
        client.postUplink(channel, "em300th", em300th("early-1", 225, 45, hour.plusSeconds(7260)));
        client.postUplink(channel, "em300th", HOT.formatted("hot-1"));
        // and two devices in the registry: early-1, which sends, and quiet-1, disabled and never heard
        var registry = stack.ingestUrl() + "/registry/" + channel + "/devices/";
        assertThat(client.put(registry + "early-1", "{\"deviceType\":\"em300th\"}")
                        .statusCode())
                .isEqualTo(201);
        assertThat(client.put(registry + "quiet-1", "{\"deviceType\":\"em300th\",\"enabled\":false}")
                        .statusCode())
                .isEqualTo(201);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> PipelineClient.json(client.getHistory("/devices/registered?channel=" + channel)
                                        .body())
                                .get("total")
                                .asInt()
                        == 2);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.storedCount(channel) == 5
                        && PipelineClient.json(client.getHistory("/alarms/count?state=ACTIVE&channel=" + channel)
                                                .body())
                                        .get("count")
                                        .asLong()
                                == 1);
        // and older than what the page replays from the live feed (10 s before the server's time, in whole
        // seconds; the alarm follows its data unit), so that only the history can show them
        var newest =
                Instant.parse(PipelineClient.json(client.getHistory("/data-units?order=desc&limit=1&channel=" + channel)
                                .body())
                        .get("items")
                        .get(0)
                        .get("receivedAt")
                        .asString());
        await().atMost(Duration.ofSeconds(25)).until(() -> Instant.now().isAfter(newest.plusSeconds(13)));

        // when the page opens
        browser.get(stack.notifyUrl() + "/#token=" + PipelineClient.DASHBOARD_TOKEN + "&channel=" + channel);

        // then each device shows its latest stored reading, from GET /devices, and the alarm is listed, before
        // anything new arrives
        await().atMost(Duration.ofSeconds(20))
                .until(() -> text("#devices tr[data-device='early-1'] .reading").contains("temperature 22.5")
                        && text("#devices tr[data-device='early-1'] .reading").contains("humidity 45")
                        && text("#alarms tr[data-device='hot-1']").contains("MAJOR"));
        assertThat(text("#devices tr[data-device='early-1']")).contains("em300th");
        assertThat(text("#devices tr[data-device='early-1'] .seen")).isNotEmpty();
        assertThat(text("#devices tr[data-device='hot-1'] .reading")).contains("temperature 30.8");
        assertThat(text("#alarms tr[data-device='hot-1']")).contains("greenhouse too hot");
        assertThat(text("#devices tr[data-device='early-1'] .count")).isEqualTo("0");
        // and the registry lists both registered devices with their state and when they were last heard
        await().atMost(Duration.ofSeconds(10))
                .until(() -> browser.findElement(By.id("registry")).isDisplayed());
        assertThat(text("#registered tr[data-device='early-1']")).contains("em300th", "enabled");
        var listedSeen = text("#registered tr[data-device='early-1'] .seen");
        assertThat(listedSeen).isNotEmpty().isNotEqualTo("never");
        assertThat(text("#registered tr[data-device='quiet-1']")).contains("disabled", "never");
        assertThat(browser.findElements(By.cssSelector("#registered tr[data-device='hot-1']")))
                .isEmpty();
        assertThat(text("#registry-note")).isEqualTo("2 of 2 shown, 1 of them disabled");
        assertThat(requested())
                .anyMatch(url -> url.contains("/devices?") && url.contains("channel=" + channel))
                .noneMatch(url -> url.contains("/data-units/latest") || url.contains("/data-units?"));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> browser.findElement(By.id("status")).getText().equals("live"));

        // when the device is selected
        browser.findElement(By.cssSelector("#devices tr[data-device='early-1']"))
                .click();

        // then each measurement is charted from the aggregate: a point per 15-minute bucket (the first the average
        // of two readings) over a min-max band
        await().atMost(Duration.ofSeconds(20))
                .until(() -> chartPoints("temperature") == 3 && chartPoints("humidity") == 3);
        assertThat(browser.findElement(By.id("device-detail")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("charts")).getDomAttribute("data-loaded"))
                .isEqualTo("true");
        assertThat(chartAverages("temperature")).isEqualTo("21,21,22.5");
        assertThat(chartAverages("humidity")).isEqualTo("42,42,45");
        for (var measurement : List.of("temperature", "humidity")) {
            var chart = "#charts figure[data-measurement='" + measurement + "'] ";
            assertThat(attribute(chart + "polyline", "points").split(" ")).hasSize(3);
            assertThat(attribute(chart + "polygon.band", "points").split(" ")).hasSize(6);
        }
        assertThat(requested())
                .anyMatch(url -> url.contains("/data-units/aggregate?")
                        && url.contains("channel=" + channel)
                        && url.contains("deviceId=early-1")
                        && url.contains("measurement=")
                        && url.contains("temperature")
                        && url.contains("humidity")
                        && url.contains("bucket=PT15M"));

        // and when the device sends a new reading
        client.postUplink(channel, "em300th", em300th("early-1", 231, 46, null));

        // then it appears live, once: in the table, the count and a new bucket of each chart
        await().atMost(Duration.ofSeconds(30))
                .until(() -> text("#devices tr[data-device='early-1'] .reading").contains("temperature 23.1"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> chartPoints("temperature") == 4 && chartPoints("humidity") == 4);
        assertThat(chartAverages("temperature")).isEqualTo("21,21,22.5,23.1");
        assertThat(chartAverages("humidity")).isEqualTo("42,42,45,46");
        assertThat(text("#devices tr[data-device='early-1'] .count")).isEqualTo("1");
        assertThat(text("#registered tr[data-device='early-1'] .seen")).isNotEqualTo(listedSeen);
        assertThat(text("#unit-count")).isEqualTo("1 data unit since opened");
        assertThat(browser.findElements(By.cssSelector("#devices tr[data-device='early-1']")))
                .hasSize(1);
        assertThat(text("#charts figure[data-measurement='temperature'] figcaption"))
                .contains("23.1", "min 20, max 23.1");
        assertThat(attribute("#charts figure[data-measurement='temperature'] polyline", "points")
                        .split(" "))
                .hasSize(4);
    }

    /** An EM300-TH uplink with a temperature in tenths of a degree and a humidity in %, measured then (or now). */
    private static String em300th(String deviceId, int tenths, int humidity, Instant measuredAt) {
        return "{\"deviceId\":\"%s\",\"payloadHex\":\"0367%02X%02X0468%02X\"%s}"
                .formatted(
                        deviceId,
                        tenths & 0xFF,
                        tenths >> 8,
                        humidity * 2,
                        measuredAt == null ? "" : ",\"measuredAt\":\"" + measuredAt + "\"");
    }

    /** The rounded bucket averages the selected device's chart of {@code measurement} draws, comma-separated. */
    private String chartAverages(String measurement) {
        return attribute("#charts figure[data-measurement='" + measurement + "'] svg", "data-avg");
    }

    /** Every URL the page has fetched, from the browser's resource timing. */
    @SuppressWarnings("unchecked")
    private List<String> requested() {
        return (List<String>) ((JavascriptExecutor) browser)
                .executeScript("return performance.getEntriesByType('resource').map(e => e.name)");
    }

    private String attribute(String css, String name) {
        return browser.findElement(By.cssSelector(css)).getDomAttribute(name);
    }

    /** How many values the selected device's chart of {@code measurement} draws; -1 without that chart. */
    private int chartPoints(String measurement) {
        var charts = browser.findElements(By.cssSelector("#charts figure[data-measurement='" + measurement + "'] svg"));
        return charts.isEmpty() ? -1 : Integer.parseInt(charts.getFirst().getDomAttribute("data-points"));
    }

    private String text(String css) {
        var found = browser.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.getFirst().getText();
    }
}
