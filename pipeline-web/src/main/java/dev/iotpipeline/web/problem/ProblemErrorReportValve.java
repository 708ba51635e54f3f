package dev.iotpipeline.web.problem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * Tomcat's own error page for requests it refuses before any servlet sees them (an invalid URI, an encoded
 * slash, headers over the limit), as a problem instead of an HTML page naming the server.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        var reason = HttpStatus.resolve(status);
        var title = reason == null ? "HTTP " + status : reason.getReasonPhrase();
        var type = ProblemAdvice.typeFor(new Exception(), HttpStatusCode.valueOf(status));
        var detail = status == 400 ? "The request is not valid HTTP for this server (its URI, or a header)" : title;
        var json = "{\"type\":\"" + Problems.BASE + type + "\",\"title\":\"" + title + "\",\"status\":" + status
                + ",\"detail\":\"" + detail + "\"}";
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            var writer = response.getReporter();
            if (writer != null) {
                writer.write(json);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response cannot take a body; nothing more to tell it.
        }
    }
}
