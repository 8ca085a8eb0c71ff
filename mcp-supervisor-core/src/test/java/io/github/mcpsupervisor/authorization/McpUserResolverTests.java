package io.github.mcpsupervisor.authorization;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.AuthenticatedPrincipal;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.User;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link McpUserResolver#DEFAULT}.
 */
class McpUserResolverTests {

	@AfterEach
	void clear() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void theUserOfTheThreadsSecurityContextIsTheUser() {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("ada", null, List.of()));
		assertThat(McpUserResolver.DEFAULT.resolve(null)).isEqualTo("ada");
		assertThat(McpUserResolver.DEFAULT.resolve(new ToolContext(Map.of("other", "x")))).isEqualTo("ada");
	}

	@Test
	void theToolContextsEntryWinsOverTheThreadsUser() {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("ada", null, List.of()));
		assertThat(McpUserResolver.DEFAULT.resolve(new ToolContext(Map.of(McpUserResolver.TOOL_CONTEXT_KEY, "grace"))))
			.isEqualTo("grace");
		assertThat(McpUserResolver.DEFAULT.resolve(new ToolContext(Map.of(McpUserResolver.TOOL_CONTEXT_KEY,
				UsernamePasswordAuthenticationToken.authenticated("grace", null, List.of())))))
			.isEqualTo("grace");
	}

	@Test
	void theToolContextNamesAUserByAPrincipalOfSpringSecuritysOrRefusesWhatIsNone() {
		assertThat(McpUserResolver.DEFAULT.resolve(new ToolContext(
				Map.of(McpUserResolver.TOOL_CONTEXT_KEY, User.withUsername("ada").password("p").build()))))
			.isEqualTo("ada");
		assertThat(McpUserResolver.DEFAULT
			.resolve(new ToolContext(Map.of(McpUserResolver.TOOL_CONTEXT_KEY, (AuthenticatedPrincipal) () -> "grace"))))
			.isEqualTo("grace");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> McpUserResolver.DEFAULT
				.resolve(new ToolContext(Map.of(McpUserResolver.TOOL_CONTEXT_KEY, List.of("ada")))))
			.withMessageContaining("mcp.user entry is a java.util");
	}

	@Test
	void anAnonymousOrUnauthenticatedOneInTheToolContextIsNoUser() {
		assertThat(McpUserResolver.DEFAULT
			.resolve(new ToolContext(Map.of(McpUserResolver.TOOL_CONTEXT_KEY, new AnonymousAuthenticationToken("key",
					"anonymousUser", AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"))))))
			.isNull();
		assertThat(McpUserResolver.DEFAULT.resolve(new ToolContext(Map.of(McpUserResolver.TOOL_CONTEXT_KEY,
				UsernamePasswordAuthenticationToken.unauthenticated("ada", "password")))))
			.isNull();
		assertThat(McpUserResolver.DEFAULT.resolve(new ToolContext(Map.of(McpUserResolver.TOOL_CONTEXT_KEY, " "))))
			.isNull();
	}

	@Test
	void noUserWithoutAnAuthenticatedOne() {
		assertThat(McpUserResolver.DEFAULT.resolve(null)).isNull();
		SecurityContextHolder.getContext()
			.setAuthentication(new AnonymousAuthenticationToken("key", "anonymousUser",
					AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
		assertThat(McpUserResolver.DEFAULT.resolve(null)).isNull();
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.unauthenticated("ada", "password"));
		assertThat(McpUserResolver.DEFAULT.resolve(null)).isNull();
	}

}
