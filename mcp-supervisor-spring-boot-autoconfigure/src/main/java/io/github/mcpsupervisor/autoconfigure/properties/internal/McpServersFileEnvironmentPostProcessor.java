package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

import io.github.mcpsupervisor.internal.ServerText;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.env.PropertySourceInfo;
import org.springframework.boot.io.ApplicationResourceLoader;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.PlaceholderResolutionException;

/**
 * Adds the servers of the files of {@code mcp.servers-configuration} to the environment
 * as {@code mcp.servers.<name>.*} properties of the lowest precedence, so that they bind,
 * validate and inherit {@code mcp.defaults} like any other, and every other property
 * source wins over them, property by property. A file that cannot be read or is invalid
 * fails the start; a refresh of the environment while the application runs leaves it as
 * it was read before instead.
 */
class McpServersFileEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** The property that lists the files. */
	static final String PROPERTY = "mcp.servers-configuration";

	/** The prefix of the names of the property sources, one per file. */
	static final String SOURCE_NAME = PROPERTY + " ";

	private static final Log logger = LogFactory.getLog(McpServersFileEnvironmentPostProcessor.class);

	// The applications that run: the environment of one of them that is post-processed
	// again is a refresh (Spring Cloud's ContextRefresher runs the post-processors again,
	// given the application that started), which must not fail for a file that the
	// running servers do without. An application leaves the set when its context closes,
	// so that running it again is a start again.
	private static final Set<SpringApplication> running = Collections
		.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

	@Override
	public int getOrder() {
		// after application.properties and profiles, which may set the property
		return ConfigDataEnvironmentPostProcessor.ORDER + 1;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		ResourceLoader resources = ApplicationResourceLoader.get(application.getClassLoader());
		if (!running.contains(application)) {
			// the start: an invalid file fails it
			install(environment, resources);
			running.add(application);
			application.addListeners(new LeavesWhenClosed(application));
			return;
		}
		try {
			install(environment, resources);
		}
		catch (McpServersFileException ex) {
			// The environment of a refresh gets no source for the files, so that the
			// running one keeps those it has (Spring Cloud copies over the sources a
			// refreshed environment has, and removes none): the rest of the refresh goes
			// on, and the reload of the servers, or the watch of the files, reports the
			// file once.
			logger.debug("The MCP servers' files are left as they were read before by this refresh: "
					+ ServerText.forLog(String.valueOf(ex.getMessage())));
		}
	}

	/**
	 * Reads the files of {@code mcp.servers-configuration} as they are now and puts their
	 * property sources in place of those of an earlier reading, all or none of them.
	 * @param environment the environment
	 * @param resources loads the files
	 * @return restores the property sources that were replaced
	 * @throws McpServersFileException if a file cannot be read or is invalid
	 */
	static Runnable install(ConfigurableEnvironment environment, ResourceLoader resources) {
		List<String> locations = locations(environment);
		Map<String, String> definedIn = new LinkedHashMap<>();
		List<File> files = new ArrayList<>();
		for (String location : locations) {
			Resource resource = resources.getResource(location.trim());
			byte[] content = McpServersFile.content(location, resource);
			Map<String, Map<String, String>> entries = McpServersFile.parse(location, content);
			for (String name : entries.keySet()) {
				String other = definedIn.putIfAbsent(name, location);
				if (other != null) {
					throw new McpServersFileException(location, name,
							"the server is also defined in '" + other + "'; define each server in one file");
				}
			}
			files.add(new File(location, resource, content, entries));
		}
		MutablePropertySources sources = environment.getPropertySources();
		List<PropertySource<?>> before = sources.stream()
			.filter((source) -> source.getName().startsWith(SOURCE_NAME))
			.toList();
		Runnable restore = () -> {
			sources.stream()
				.filter((source) -> source.getName().startsWith(SOURCE_NAME))
				.toList()
				.forEach((source) -> sources.remove(source.getName()));
			before.forEach(sources::addLast);
		};
		before.forEach((source) -> sources.remove(source.getName()));
		for (File file : files) {
			sources.addLast(file.propertySource());
		}
		try {
			for (File file : files) {
				file.checkPlaceholders(environment);
			}
		}
		catch (RuntimeException ex) {
			restore.run();
			throw ex;
		}
		return restore;
	}

	/**
	 * Returns the contents of the files that the servers of the environment were read
	 * from, as they were read.
	 * @param environment the environment
	 * @return the content of each file by its location as configured
	 */
	static Map<String, byte[]> contents(ConfigurableEnvironment environment) {
		Map<String, byte[]> contents = new LinkedHashMap<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof FilePropertySource file) {
				contents.put(file.location, file.content.clone());
			}
		}
		return contents;
	}

	/**
	 * Returns the locations of {@code mcp.servers-configuration}.
	 * @param environment the environment
	 * @return the locations, as configured
	 */
	static List<String> locations(ConfigurableEnvironment environment) {
		return Binder.get(environment).bind(PROPERTY, Bindable.listOf(String.class)).orElse(List.of());
	}

	/**
	 * The servers of one file, each value with its origin, and the content they were read
	 * from.
	 */
	/**
	 * Takes an application out of the running ones when its own context closes (not a
	 * child's, whose closing its listeners hear too).
	 */
	private static final class LeavesWhenClosed implements ApplicationListener<ApplicationEvent> {

		private final SpringApplication application;

		private volatile @Nullable ApplicationContext context;

		LeavesWhenClosed(SpringApplication application) {
			this.application = application;
		}

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ApplicationPreparedEvent prepared) {
				this.context = prepared.getApplicationContext();
			}
			else if (event instanceof ApplicationFailedEvent
					|| (event instanceof ContextClosedEvent closed && closed.getApplicationContext() == this.context)) {
				running.remove(this.application);
			}
		}

	}

	private static final class FilePropertySource extends MapPropertySource
			implements OriginLookup<String>, PropertySourceInfo {

		private final String location;

		private final byte[] content;

		FilePropertySource(String location, byte[] content, Map<String, Object> properties) {
			super(SOURCE_NAME + location, properties);
			this.location = location;
			this.content = content;
		}

		@Override
		public @Nullable Object getProperty(String name) {
			Object value = super.getProperty(name);
			return (value instanceof OriginTrackedValue tracked) ? tracked.getValue() : value;
		}

		@Override
		public @Nullable Origin getOrigin(String name) {
			return (super.getProperty(name) instanceof OriginTrackedValue tracked) ? tracked.getOrigin() : null;
		}

		@Override
		public boolean isImmutable() {
			return true;
		}

	}

	private record File(String location, Resource resource, byte[] content, Map<String, Map<String, String>> entries) {

		PropertySource<?> propertySource() {
			TextResourceOrigin origin = new TextResourceOrigin(this.resource, null);
			Map<String, Object> properties = new LinkedHashMap<>();
			this.entries.forEach((name, entry) -> entry.forEach((key, value) -> properties
				.put(McpServerNames.key(name) + "." + key, OriginTrackedValue.of(value, origin))));
			return new FilePropertySource(this.location, this.content, properties);
		}

		// An unresolvable ${X} would otherwise reach the server as the literal text
		// "${X}",
		// e.g. as the token of an Authorization header; unless another source sets the
		// property, the application does not start
		void checkPlaceholders(ConfigurableEnvironment environment) {
			String sourceName = SOURCE_NAME + this.location;
			this.entries.forEach((name, entry) -> entry.forEach((key, value) -> {
				if (!value.contains("${")) {
					return;
				}
				if (setElsewhere(environment, sourceName, name, key)) {
					return;
				}
				try {
					environment.resolveRequiredPlaceholders(value);
				}
				catch (PlaceholderResolutionException ex) {
					// the message of ex, and so its cause, quotes the whole value: a
					// credential around the placeholder
					throw new McpServersFileException(this.location, name,
							key + ": could not resolve placeholder '" + ex.getPlaceholder()
									+ "'; set it as an environment variable or a property, "
									+ "or give it a default: ${NAME:default}");
				}
				catch (IllegalArgumentException ex) {
					throw new McpServersFileException(this.location, name,
							key + ": its placeholders cannot be resolved (the value is not shown)");
				}
			}));
		}

		private static boolean setElsewhere(ConfigurableEnvironment environment, String sourceName, String server,
				String key) {
			// a list is replaced as a whole by a source that sets any of its elements;
			// other sources usually write a map's key env[TOKEN] as env.TOKEN
			String prefix = McpServerNames.key(server) + ".";
			String[] names = key.startsWith("args[") ? new String[] { prefix + "args" }
					: new String[] { prefix + key, prefix + key.replace('[', '.').replace("]", "") };
			for (String name : names) {
				if (setElsewhere(environment, sourceName, ConfigurationPropertyName.adapt(name, '.'))) {
					return true;
				}
			}
			return false;
		}

		private static boolean setElsewhere(ConfigurableEnvironment environment, String sourceName,
				ConfigurationPropertyName name) {
			for (ConfigurationPropertySource source : ConfigurationPropertySources
				.from(environment.getPropertySources())) {
				if (source.getUnderlyingSource() instanceof PropertySource<?> underlying
						&& underlying.getName().equals(sourceName)) {
					return false;
				}
				if (source.getConfigurationProperty(name) != null
						|| source.containsDescendantOf(name) == ConfigurationPropertyState.PRESENT) {
					return true;
				}
			}
			return false;
		}

	}

}
