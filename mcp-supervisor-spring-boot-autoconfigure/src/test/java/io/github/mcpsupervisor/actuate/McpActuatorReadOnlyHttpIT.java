package io.github.mcpsupervisor.actuate;

import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without access granted, the endpoint is read-only: reset and restart are not reachable.
 */
// Closed after the class: its servers must not outlive it (other tests check for
// leftovers).
@DirtiesContext
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = McpActuatorReadOnlyHttpIT.App.class,
		properties = {
				// the test class path has Spring Security (the OAuth tests): not what is
				// tested here
				"spring.autoconfigure.exclude=" + Http.NO_WEB_SECURITY,
				"mcp.servers.broken.command=/nonexistent/mcp-server", "management.endpoints.web.exposure.include=mcp" })
class McpActuatorReadOnlyHttpIT {

	@Value("${local.server.port}")
	private int port;

	@Autowired
	private McpSupervisors supervisors;

	@Test
	void readsAreAllowed() throws Exception {
		assertThat(new Http(this.port).get("/actuator/mcp").statusCode()).isEqualTo(200);
		assertThat(new Http(this.port).get("/actuator/mcp/broken").statusCode()).isEqualTo(200);
	}

	@Test
	void writesAreDeniedByDefault() throws Exception {
		assertThat(new Http(this.port).post("/actuator/mcp/broken/reset").statusCode()).isBetween(400, 499);
		assertThat(new Http(this.port).post("/actuator/mcp/broken/restart").statusCode()).isBetween(400, 499);
		assertThat(this.supervisors.supervisor("broken").status().generation()).isEqualTo(1);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

	}

}
