package io.github.mcpsupervisor.autoconfigure.authorization;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.Lock;

import javax.sql.DataSource;

import io.github.mcpsupervisor.authorization.InMemoryMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.JdbcMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Authorization.Jdbc;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Authorization.Store;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PlatformPlaceholderDatabaseDriverResolver;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.context.annotation.Import;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.util.StringUtils;

/**
 * Where the servers' authorizations are kept: the application's own
 * {@link McpAuthorizationStore} bean, else its database when it has one
 * {@link DataSource} (and {@code mcp.authorization.store} is not {@code memory}), else
 * this JVM's memory ({@link #inMemory}). The database's tables are created as Spring Boot
 * creates those of its own JDBC stores
 * ({@code mcp.authorization.jdbc.initialize-schema}).
 */
@Configuration(proxyBeanMethods = false)
@Import(McpAuthorizationStoreConfiguration.JdbcStoreConfiguration.class)
class McpAuthorizationStoreConfiguration {

	/** The region of the renewal locks in Spring Integration's lock table. */
	static final String LOCK_REGION = "mcp-supervisor";

	/** The prefix of the renewal locks' table, {@code MCP_LOCK}. */
	static final String LOCK_TABLE_PREFIX = "MCP_";

	/**
	 * Returns the store of an application without one in its database.
	 * @param properties the configuration
	 * @return a store in this JVM's memory
	 */
	static McpAuthorizationStore inMemory(McpSupervisorProperties properties) {
		if (properties.authorization().store() == Store.JDBC) {
			throw new IllegalStateException("mcp.authorization.store is jdbc, but the application has no"
					+ " DataSource to keep the authorizations in (or several, none of them primary)");
		}
		return new InMemoryMcpAuthorizationStore();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ JdbcOperations.class, DataSource.class })
	@ConditionalOnSingleCandidate(DataSource.class)
	@ConditionalOnMissingBean(McpAuthorizationStore.class)
	@Conditional(StoreInDatabaseCondition.class)
	@Import(DatabaseInitializationDependencyConfigurer.class)
	static class JdbcStoreConfiguration {

		@Bean
		@DependsOnDatabaseInitialization
		JdbcMcpAuthorizationStore mcpAuthorizationStore(DataSource dataSource,
				ObjectProvider<JdbcOperations> jdbcOperations, SupervisorScheduler scheduler) {
			return new JdbcMcpAuthorizationStore(jdbcOperations.getIfUnique(() -> new JdbcTemplate(dataSource)),
					scheduler.clock());
		}

		@Bean
		McpAuthorizationAutoConfiguration.StoreTables mcpAuthorizationStoreTables() {
			return (store, locks) -> {
				if (!(store instanceof JdbcMcpAuthorizationStore jdbc)) {
					return;
				}
				try {
					jdbc.checkTables();
					if (locks != null) {
						locks.checkTables();
					}
				}
				catch (BadSqlGrammarException ex) {
					throw new IllegalStateException("The OAuth authorizations of the MCP servers are kept in the"
							+ " application's database (mcp.authorization.store=auto with a DataSource), but its tables"
							+ " cannot be read (" + CauseChain.rootMessage(ex) + "): create them with"
							+ " mcp.authorization.jdbc.initialize-schema=always or from"
							+ " io/github/mcpsupervisor/authorization/schema-<platform>.sql in the application's"
							+ " migrations, or keep them in memory with mcp.authorization.store=memory", ex);
				}
			};
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(DataSourceScriptDatabaseInitializer.class)
		static class SchemaConfiguration {

			@Bean
			@ConditionalOnMissingBean(name = "mcpAuthorizationScriptDatabaseInitializer")
			DataSourceScriptDatabaseInitializer mcpAuthorizationScriptDatabaseInitializer(DataSource dataSource,
					McpSupervisorProperties properties) {
				Jdbc jdbc = properties.authorization().jdbc();
				DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
				settings.setMode(DatabaseInitializationMode.valueOf(jdbc.initializeSchema().name()));
				if (settings.getMode() != DatabaseInitializationMode.NEVER) {
					// the platform is asked of the database only when a script may run
					PlatformPlaceholderDatabaseDriverResolver platforms = new PlatformPlaceholderDatabaseDriverResolver();
					List<String> locations = StringUtils.hasText(jdbc.platform())
							? platforms.resolveAll(jdbc.platform(), jdbc.schema())
							: platforms.resolveAll(dataSource, jdbc.schema());
					settings.setSchemaLocations(locations);
				}
				return new DataSourceScriptDatabaseInitializer(dataSource, settings);
			}

		}

		/**
		 * Spring Integration's JDBC locks on the same database, for the renewals, when
		 * the application has no {@link LockRegistry} of its own.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(JdbcLockRegistry.class)
		@ConditionalOnMissingBean(LockRegistry.class)
		static class RenewalLocksConfiguration {

			@Bean
			DefaultLockRepository mcpRenewalLockRepository(DataSource dataSource) {
				DefaultLockRepository repository = new DefaultLockRepository(dataSource);
				// a table of the starter's own: Spring Integration's INT_LOCK, of its own
				// version, may be the application's; checked with the store's at the
				// start
				repository.setPrefix(LOCK_TABLE_PREFIX);
				repository.setRegion(LOCK_REGION);
				repository.setCheckDatabaseOnStart(false);
				repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
				return repository;
			}

			@Bean
			McpAuthorizationAutoConfiguration.RenewalLocks mcpRenewalLocks(DefaultLockRepository repository,
					DataSource dataSource) {
				JdbcLockRegistry registry = new JdbcLockRegistry(repository);
				return new McpAuthorizationAutoConfiguration.RenewalLocks() {

					@Override
					public Lock obtain(String registration, Duration holdAtMost) {
						return new FleetRenewalLock(
								registry.obtain(McpAuthorizationAutoConfiguration.RENEWAL_LOCK_PREFIX + registration),
								registration, holdAtMost);
					}

					@Override
					public void checkTables() {
						new JdbcTemplate(dataSource).queryForObject(
								"SELECT COUNT(*) FROM " + LOCK_TABLE_PREFIX + "LOCK WHERE 1 = 0", Integer.class);
					}

				};
			}

		}

	}

	/**
	 * {@code mcp.authorization.store} is {@code auto} (or not set) or {@code jdbc}.
	 */
	static final class StoreInDatabaseCondition extends AnyNestedCondition {

		StoreInDatabaseCondition() {
			super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty(name = "mcp.authorization.store", havingValue = "auto", matchIfMissing = true)
		static final class Auto {

		}

		@ConditionalOnProperty(name = "mcp.authorization.store", havingValue = "jdbc")
		static final class Jdbc {

		}

	}

}
