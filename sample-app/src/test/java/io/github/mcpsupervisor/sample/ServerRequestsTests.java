package io.github.mcpsupervisor.sample;

import java.util.Map;

import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link ServerRequests} answers each way a request to a server can end.
 */
class ServerRequestsTests {

	@Test
	void aResultIsAnsweredWithOk() {
		ResponseEntity<?> response = ServerRequests.answer(() -> Map.of("prompts", "none"));
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.getBody()).isEqualTo(Map.of("prompts", "none"));
	}

	@Test
	void aProblemOfTheInputIsAnsweredAsItIs() {
		ResponseEntity<?> response = ServerRequests.answer(() -> ServerRequests.missingUri("demo"));
		assertThat(problem(response, HttpStatus.BAD_REQUEST).getDetail())
			.isEqualTo("The query parameter 'uri' must name a resource; see GET /servers/demo/resources");
	}

	@Test
	void aCapabilityTheServerLacksIsNotFound() {
		ResponseEntity<?> response = ServerRequests.answer(() -> {
			throw new McpCapabilityException("demo", "prompts");
		});
		assertThat(problem(response, HttpStatus.NOT_FOUND).getDetail())
			.isEqualTo("MCP server 'demo' does not offer prompts (it did not declare the capability at initialize)");
	}

	@Test
	void anUnavailableServerIsServiceUnavailable() {
		ResponseEntity<?> response = ServerRequests.answer(() -> {
			throw new McpServerUnavailableException("demo", McpServerState.DISCONNECTED,
					"MCP server 'demo' is disconnected", null);
		});
		assertThat(problem(response, HttpStatus.SERVICE_UNAVAILABLE).getDetail())
			.isEqualTo("MCP server 'demo' is disconnected");
	}

	@Test
	void aResourceTheServerDoesNotHaveIsNotFound() {
		ResponseEntity<?> response = ServerRequests.answer(() -> {
			throw McpError.RESOURCE_NOT_FOUND.apply("demo://nope");
		});
		ProblemDetail problem = problem(response, HttpStatus.NOT_FOUND);
		assertThat(problem.getDetail()).isEqualTo("Resource not found");
		assertThat(problem.getProperties()).containsEntry("code", ErrorCodes.RESOURCE_NOT_FOUND)
			.containsEntry("data", Map.of("uri", "demo://nope"));
	}

	@Test
	void parametersTheServerRejectsAreUnprocessable() {
		ResponseEntity<?> response = ServerRequests.answer(() -> {
			throw McpError.builder(ErrorCodes.INVALID_PARAMS).message("Invalid prompt name").build();
		});
		ProblemDetail problem = problem(response, HttpStatus.UNPROCESSABLE_CONTENT);
		assertThat(problem.getDetail()).isEqualTo("Invalid prompt name");
		assertThat(problem.getProperties()).containsEntry("code", ErrorCodes.INVALID_PARAMS).doesNotContainKey("data");
	}

	@Test
	void anyOtherErrorOfTheServerIsABadGateway() {
		ResponseEntity<?> response = ServerRequests.answer(() -> {
			throw McpError.builder(ErrorCodes.INTERNAL_ERROR).message("boom").data("stack").build();
		});
		ProblemDetail problem = problem(response, HttpStatus.BAD_GATEWAY);
		assertThat(problem.getDetail()).isEqualTo("boom");
		assertThat(problem.getProperties()).containsEntry("code", ErrorCodes.INTERNAL_ERROR)
			.containsEntry("data", "stack");
	}

	@Test
	void aRequestThatGetsNoAnswerIsABadGateway() {
		ResponseEntity<?> response = ServerRequests.answer(() -> {
			throw new IllegalStateException("MCP server 'demo' listed prompts with more than 100 pages");
		});
		assertThat(problem(response, HttpStatus.BAD_GATEWAY).getDetail())
			.isEqualTo("MCP server 'demo' listed prompts with more than 100 pages");
	}

	private static ProblemDetail problem(ResponseEntity<?> response, HttpStatus status) {
		assertThat(response.getStatusCode()).isEqualTo(status);
		assertThat(response.getBody()).isInstanceOf(ProblemDetail.class);
		ProblemDetail problem = (ProblemDetail) response.getBody();
		assertThat(problem.getStatus()).isEqualTo(status.value());
		return problem;
	}

}
