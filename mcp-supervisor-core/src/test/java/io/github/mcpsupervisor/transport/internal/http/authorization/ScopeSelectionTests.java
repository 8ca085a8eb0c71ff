package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ScopeSelection} and {@link AuthorizationResponseIssuer}.
 */
class ScopeSelectionTests {

	private static final List<String> SUPPORTED = List.of("mcp:basic", "mcp:read", "mcp:write");

	@Test
	void theChallengesScopesComeFirstThenThoseTheResourceSupportsThenNone() {
		assertThat(ScopeSelection.initial(challenge("mcp:basic"), SUPPORTED, List.of(), false))
			.containsExactly("mcp:basic");
		assertThat(ScopeSelection.initial(challenge(), SUPPORTED, List.of(), false)).isEqualTo(SUPPORTED);
		assertThat(ScopeSelection.initial(null, SUPPORTED, List.of(), false)).isEqualTo(SUPPORTED);
		assertThat(ScopeSelection.initial(null, List.of(), List.of(), false)).isEmpty();
	}

	@Test
	void offlineAccessIsAskedForOnlyWhereTheAuthorizationServerNamesIt() {
		assertThat(
				ScopeSelection.initial(challenge("mcp:basic"), SUPPORTED, List.of("mcp:basic", "offline_access"), true))
			.containsExactly("mcp:basic", "offline_access");
		assertThat(ScopeSelection.initial(challenge("mcp:basic"), SUPPORTED, List.of("mcp:basic", "mcp:read"), true))
			.containsExactly("mcp:basic");
		assertThat(
				ScopeSelection.initial(challenge("mcp:basic", "offline_access"), SUPPORTED, List.of("mcp:basic"), true))
			.as("not even when the challenge names it")
			.containsExactly("mcp:basic");
		assertThat(ScopeSelection.initial(null, List.of(), List.of("offline_access"), true))
			.as("a request without scopes stays without")
			.isEmpty();
	}

	@Test
	void aStepUpAsksForTheUnionOfThePreviousScopesAndTheChallenges() {
		assertThat(ScopeSelection.stepUp(List.of("mcp:basic"), challenge("mcp:write", "mcp:basic"), List.of(), false))
			.containsExactly("mcp:basic", "mcp:write");
	}

	@Test
	void anAuthorizationResponsesIssuerIsComparedExactly() {
		String issuer = "http://localhost:3000";
		assertThat(AuthorizationResponseIssuer.refusal(issuer, true, issuer)).isNull();
		assertThat(AuthorizationResponseIssuer.refusal(issuer, false, issuer)).isNull();
		assertThat(AuthorizationResponseIssuer.refusal(issuer, false, null)).isNull();
		assertThat(AuthorizationResponseIssuer.refusal(issuer, true, null)).contains("has none");
		assertThat(AuthorizationResponseIssuer.refusal(issuer, true, issuer + "/")).contains("is not");
		assertThat(AuthorizationResponseIssuer.refusal(issuer, false, "https://evil.example.com")).contains("is not");
		assertThat(AuthorizationResponseIssuer.refusal(issuer, true, "HTTP://localhost:3000")).contains("is not");
	}

	private static BearerChallenge challenge(String... scopes) {
		return new BearerChallenge(null, null, List.of(scopes), null);
	}

}
