package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BearerChallenge}.
 */
class BearerChallengeTests {

	@Test
	void theParametersTheSpecificationReadsAreRead() {
		BearerChallenge challenge = read("Bearer error=\"insufficient_scope\", scope=\"files:read files:write\","
				+ " resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\","
				+ " error_description=\"more \\\"scopes\\\", please\"");
		assertThat(challenge.error()).isEqualTo("insufficient_scope");
		assertThat(challenge.isInsufficientScope()).isTrue();
		assertThat(challenge.scopes()).containsExactly("files:read", "files:write");
		assertThat(challenge.resourceMetadata())
			.isEqualTo("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
		assertThat(challenge.errorDescription()).isEqualTo("more \"scopes\", please");
	}

	@Test
	void theBearerChallengeIsFoundAmongOthersWhateverTheCaseAndSpacing() {
		BearerChallenge challenge = read("Negotiate abc123==, Basic realm=\"a, b\" ,BEARER  Realm = \"mcp\" ,"
				+ "Error=invalid_token, Scope = \"a\"");
		assertThat(challenge.error()).isEqualTo("invalid_token");
		assertThat(challenge.scopes()).containsExactly("a");
		assertThat(challenge.isInsufficientScope()).isFalse();
		assertThat(BearerChallenge.of(List.of("Basic realm=\"x\"", "Bearer scope=\"b c\"")).orElseThrow().scopes())
			.containsExactly("b", "c");
	}

	@Test
	void aBareBearerChallengeHasNoParameters() {
		assertThat(read("Bearer")).isEqualTo(new BearerChallenge(null, null, List.of(), null));
		assertThat(read("Bearer, Basic realm=\"x\"")).isEqualTo(new BearerChallenge(null, null, List.of(), null));
		assertThat(read("Negotiate token68, Bearer error=\"invalid_token\"").error()).isEqualTo("invalid_token");
	}

	@Test
	void whatIsNotAChallengeOrTooLongIsNotRead() {
		assertThat(BearerChallenge.of(List.of("Basic realm=\"x\""))).isEmpty();
		assertThat(BearerChallenge.of(List.of("Bearer error=\"unterminated")))
			.hasValueSatisfying((challenge) -> assertThat(challenge.error()).isNull());
		assertThat(BearerChallenge.of(List.of("Bearer scope=\"" + "a".repeat(BearerChallenge.MAX_LENGTH) + "\"")))
			.isEmpty();
		assertThat(BearerChallenge.of(List.of())).isEmpty();
	}

	@Test
	void unquotedValuesThatAreNotTokensAreReadToTheNextCommaAndEmptyElementsSkipped() {
		BearerChallenge challenge = read("Bearer , realm=example.com/mcp, error=insufficient_scope, scope=mcp:write,"
				+ " resource_metadata=https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
		assertThat(challenge.isInsufficientScope()).isTrue();
		assertThat(challenge.scopes()).containsExactly("mcp:write");
		assertThat(challenge.resourceMetadata())
			.isEqualTo("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
		assertThat(read("Bearer realm=\"x\",, ,error=\"invalid_token\"").error()).isEqualTo("invalid_token");
	}

	@Test
	void theFirstValueOfARepeatedParameterCounts() {
		assertThat(read("Bearer scope=\"first\", scope=\"second\"").scopes()).containsExactly("first");
	}

	private static BearerChallenge read(String header) {
		return BearerChallenge.of(List.of(header)).orElseThrow();
	}

}
