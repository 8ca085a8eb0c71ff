package io.github.mcpsupervisor.sample;

import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application's side of the authorization code flow of an OAuth-protected server (see
 * docs/authorization.md): the authorizations its servers wait for, each with the URL a
 * person opens, and the redirect endpoint the authorization server sends that person back
 * to ({@code oauth.redirect-uri}, here {@code http://localhost:8080/authorized/mcp}).
 * Once completed, the server connects on its own.
 */
@RestController
class AuthorizationsController {

	private final McpServerAuthorizations authorizations;

	AuthorizationsController(McpServerAuthorizations authorizations) {
		this.authorizations = authorizations;
	}

	@GetMapping("/authorizations")
	List<McpAuthorizationRequest> pending() {
		return this.authorizations.pending();
	}

	@GetMapping("/authorized/mcp")
	ResponseEntity<?> authorized(@RequestParam Map<String, String> parameters) {
		try {
			String server = this.authorizations.complete(parameters);
			return ResponseEntity.ok("MCP server '" + server + "' is authorized; it connects now.");
		}
		catch (McpAuthorizationException ex) {
			return ServerRequests.problem(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
	}

}
