// Entry point for the contributor scripts: prints errors as one readable line instead of a stack trace.
const [, , command, ...args] = process.argv;
const modules = { import: './cli.mjs', 'new-dataset': './new-dataset.mjs', validate: './validate-cli.mjs' };
try {
  const mod = await import(modules[command]);
  process.exitCode = await mod.main(args);
} catch (e) {
  console.error(`${command}: ${e.message}`);
  if (process.env.DEBUG) console.error(e.stack);
  process.exitCode = 2;
}
