package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard page in a real headless Chromium: data posted by devices appears live, and an alarm raised by a
 * rule is acknowledged from the page. Needs Debian's chromium and chromium-driver (the test command installs them).
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
        var options = new ChromeOptions().setBinary(chromium.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu");
        var service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile()).build();
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
        await().atMost(Duration.ofSeconds(20)).until(() -> browser.findElement(By.id("status")).getText().equals("live"));

        // when two devices post, one of them hot
        client.postUplink(channel, "em300th", COOL.formatted("cool-1"));
        client.postUplink(channel, "em300th", COOL.formatted("cool-1"));
        client.postUplink(channel, "em300th", HOT.formatted("hot-1"));

        // then both devices appear in the live table with their readings and counts
        await().atMost(Duration.ofSeconds(30)).until(() -> text("#devices tr[data-device='cool-1'] .count").equals("2")
                && text("#devices tr[data-device='hot-1'] .count").equals("1"));
        assertThat(text("#devices tr[data-device='hot-1'] .reading")).contains("temperature 30.8");
        assertThat(text("#unit-count")).isEqualTo("3 data units");

        // and the hot device's alarm is listed as active, with an acknowledge button that works
        await().atMost(Duration.ofSeconds(30)).until(() ->
                !browser.findElements(By.cssSelector("#alarms tr[data-device='hot-1'] button.acknowledge")).isEmpty());
        var row = browser.findElement(By.cssSelector("#alarms tr[data-device='hot-1']"));
        var alarmId = row.getDomAttribute("data-alarm");
        assertThat(row.getText()).contains("MAJOR", "greenhouse too hot");
        row.findElement(By.cssSelector("button.acknowledge")).click();

        await().atMost(Duration.ofSeconds(30)).until(() -> "true".equals(
                browser.findElement(By.cssSelector("#alarms tr[data-alarm='" + alarmId + "']")).getDomAttribute("data-acknowledged")));
        assertThat(text("#alarms tr[data-alarm='" + alarmId + "']")).contains("acknowledged");
        await().atMost(Duration.ofSeconds(30)).until(() -> PipelineClient.json(
                client.getHistory("/alarms/" + alarmId).body()).get("acknowledged").asBoolean());
    }

    private String text(String css) {
        var found = browser.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.getFirst().getText();
    }
}
