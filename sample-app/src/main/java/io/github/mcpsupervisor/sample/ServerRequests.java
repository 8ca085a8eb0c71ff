package io.github.mcpsupervisor.sample;

import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.mcpsupervisor.client.McpServerClient;
import io.github.mcpsupervisor.client.McpServerClients;
import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Sends a request to one supervised server through its client and answers over HTTP with
 * what the server returned, or with an RFC 9457 problem saying why it did not.
 */
@Component
class ServerRequests {

	private final McpServerClients clients;

	ServerRequests(McpServerClients clients) {
		this.clients = clients;
	}

	/**
	 * Sends a request to a server.
	 * @param server the server's name
	 * @param request the request; it returns a {@link ResponseEntity} itself to answer
	 * with a problem of its input before anything is sent
	 * @return the answer
	 */
	ResponseEntity<?> send(String server, Function<McpServerClient, ?> request) {
		McpServerClient client;
		try {
			client = this.clients.client(server);
		}
		catch (NoSuchElementException ex) {
			return problem(HttpStatus.NOT_FOUND, ex.getMessage());
		}
		return answer(() -> request.apply(client));
	}

	/**
	 * Runs a request and answers with its result or with the problem it failed with.
	 * @param request the request
	 * @return the answer
	 */
	static ResponseEntity<?> answer(Supplier<?> request) {
		try {
			Object result = request.get();
			return (result instanceof ResponseEntity<?> response) ? response : ResponseEntity.ok(result);
		}
		catch (McpCapabilityException ex) {
			// the server is there but has nothing of the kind asked for
			return problem(HttpStatus.NOT_FOUND, ex.getMessage());
		}
		catch (McpServerUnavailableException ex) {
			return problem(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
		}
		catch (McpError ex) {
			return answered(ex.getJsonRpcError(), ex.getMessage());
		}
		catch (RuntimeException ex) {
			// no answer in time, or a listing beyond the client's limits
			return problem(HttpStatus.BAD_GATEWAY, ex.getMessage());
		}
	}

	// An error the server answered: the request's fault when the server says so.
	private static ResponseEntity<ProblemDetail> answered(@Nullable JSONRPCError error, @Nullable String message) {
		int code = (error != null) ? error.code() : ErrorCodes.INTERNAL_ERROR;
		HttpStatus status = switch (code) {
			case ErrorCodes.RESOURCE_NOT_FOUND -> HttpStatus.NOT_FOUND;
			case ErrorCodes.INVALID_PARAMS -> HttpStatus.UNPROCESSABLE_CONTENT;
			default -> HttpStatus.BAD_GATEWAY;
		};
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, message);
		problem.setProperty("code", code);
		if (error != null && error.data() != null) {
			problem.setProperty("data", error.data());
		}
		return ResponseEntity.status(status).body(problem);
	}

	static ResponseEntity<ProblemDetail> missingUri(String server) {
		return problem(HttpStatus.BAD_REQUEST,
				"The query parameter 'uri' must name a resource; see GET /servers/" + server + "/resources");
	}

	static ResponseEntity<ProblemDetail> problem(HttpStatus status, @Nullable String detail) {
		return ResponseEntity.status(status).body(ProblemDetail.forStatusAndDetail(status, detail));
	}

}
