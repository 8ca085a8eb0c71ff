package io.github.mcpsupervisor.autoconfigure;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.tool.McpToolNaming;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.DefaultMcpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.beans.factory.BeanFactory;

/**
 * Decides which {@link McpToolNamePrefixGenerator} bean names the tools of the servers
 * that keep Spring AI's names, and refuses one that would name no tool or several of
 * which none is primary: neither may be ignored without a word. Spring AI's
 * {@link DefaultMcpToolNamePrefixGenerator} is Spring AI's default, not the application's
 * choice: it may name no tool.
 */
final class McpToolNamingCheck {

	private McpToolNamingCheck() {
	}

	/**
	 * Returns the generator of the servers that keep Spring AI's names.
	 * @param toolNames how each configured server's tools are named
	 * @param beanNames the names of the generator beans
	 * @param unique the one generator to use, {@code null} when there are none or several
	 * without a primary one
	 * @param beanFactory where the beans are defined
	 * @return the generator, or {@code null} for none
	 * @throws McpToolNamingException if a generator would be ignored
	 */
	static @Nullable McpToolNamePrefixGenerator generator(Map<String, McpToolNaming> toolNames, String[] beanNames,
			@Nullable McpToolNamePrefixGenerator unique, BeanFactory beanFactory) {
		if (beanNames.length == 0) {
			return null;
		}
		if (unique == null) {
			throw new McpToolNamingException(
					"The application defines " + beanNames.length + " McpToolNamePrefixGenerator beans ("
							+ Arrays.stream(beanNames)
								.map((name) -> describe(name, beanFactory))
								.collect(Collectors.joining(", "))
							+ ") and none of them is @Primary, so no one of them can name the MCP tools.",
					"Keep one McpToolNamePrefixGenerator bean, or mark the one that names the tools @Primary.");
		}
		// Spring AI's tool callback auto-configuration registers its default while
		// spring.ai.mcp.client.toolcallback.enabled is true: not the application's choice
		if (!toolNames.isEmpty() && !toolNames.containsValue(McpToolNaming.SPRING_AI)
				&& unique.getClass() != DefaultMcpToolNamePrefixGenerator.class) {
			throw new McpToolNamingException(
					"The application defines a McpToolNamePrefixGenerator (" + describe(beanNames[0], beanFactory)
							+ "), but every MCP server's tools are named 'prefixed' "
							+ "(<server>_<tool>, mcp.defaults.tool-names), so it would name no tool.",
					"Set mcp.defaults.tool-names=spring-ai (or mcp.servers.<name>.tool-names=spring-ai for the "
							+ "servers it is meant for) to have it name their tools as Spring AI's MCP client "
							+ "would, or remove the bean.");
		}
		return unique;
	}

	private static String describe(String bean, BeanFactory beanFactory) {
		Class<?> type = beanFactory.getType(bean);
		return "bean '" + bean + "'" + ((type != null && !type.isSynthetic()) ? " of type " + type.getName() : "");
	}

}
