package io.github.mcpsupervisor.e2e;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.AssistantMessage.ToolCall;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A chat model test double that behaves like a real provider's model: it answers each
 * prompt by asking for the next scripted tool call, runs it through Spring AI's
 * {@link ToolCallingManager} with the callbacks the ChatClient passed in the prompt, and
 * answers with what the tool returned.
 */
final class ScriptedChatModel implements ChatModel {

	private final ToolCallingManager toolCallingManager;

	private final Deque<ToolCall> script;

	private volatile List<ToolDefinition> toolsSeen = List.of();

	ScriptedChatModel(ToolCall... toolCalls) {
		this(ToolCallingManager.builder().build(), toolCalls);
	}

	/**
	 * Creates a model that runs the tool calls with the given manager, for example the
	 * application's, with its exception processor.
	 * @param toolCallingManager runs the tool calls
	 * @param toolCalls the tool call of each prompt
	 */
	ScriptedChatModel(ToolCallingManager toolCallingManager, ToolCall... toolCalls) {
		this.toolCallingManager = toolCallingManager;
		this.script = new ArrayDeque<>(List.of(toolCalls));
	}

	/**
	 * Returns the tools the last prompt offered, as a provider's model is told of them.
	 * @return their definitions
	 */
	List<ToolDefinition> toolsSeen() {
		return this.toolsSeen;
	}

	@Override
	public ChatOptions getOptions() {
		return ToolCallingChatOptions.builder().build();
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		if (prompt.getOptions() instanceof ToolCallingChatOptions options) {
			this.toolsSeen = this.toolCallingManager.resolveToolDefinitions(options);
		}
		ToolCall toolCall = this.script.poll();
		if (toolCall == null) {
			throw new IllegalStateException("the script has no more tool calls");
		}
		ChatResponse askForTool = new ChatResponse(
				List.of(new Generation(AssistantMessage.builder().content("").toolCalls(List.of(toolCall)).build())));
		ToolExecutionResult result = this.toolCallingManager.executeToolCalls(prompt, askForTool);
		List<Message> history = result.conversationHistory();
		ToolResponseMessage toolResponse = (ToolResponseMessage) history.get(history.size() - 1);
		String answer = "The tool said: " + toolResponse.getResponses().get(0).responseData();
		return new ChatResponse(List.of(new Generation(new AssistantMessage(answer))));
	}

	static ToolCall toolCall(String name, String arguments) {
		return new ToolCall("call-" + name, "function", name, arguments);
	}

}
