// make.js writes the Parquet files of this directory with hyparquet-writer,
// a JavaScript implementation of Parquet, and beside each file a CSV file
// holding the values written: the test reads both and compares them. See
// README.md for how to run it: from the directory where hyparquet-writer
// is installed (its node_modules), as the files are written beside this
// script.
const { writeFileSync } = require('node:fs')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')

// rand returns a deterministic pseudo-random generator (mulberry32), so that
// the files are the same at every run.
function rand(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// cell writes a value as a CSV cell: null as an empty cell, a boolean as 1
// or 0, a BigInt exactly, a number in JavaScript's shortest form, which
// reads back as the same float64.
function cell(v) {
  if (v === null) return ''
  if (typeof v === 'boolean') return v ? '1' : '0'
  return String(v)
}

// write writes name.parquet from columns and name.csv with the same values.
function write(parquetWriteFile, name, columns, options) {
  name = join(__dirname, name)
  let columnData = columns
  if (options.schema) {
    columnData = columns.map(({ name, data }) => ({ name, data }))
  }
  parquetWriteFile({ filename: name + '.parquet', columnData, ...options })
  const rows = columns[0].data.length
  const lines = [columns.map(c => c.name).join(',')]
  for (let r = 0; r < rows; r++) {
    lines.push(columns.map(c => cell(c.data[r])).join(','))
  }
  writeFileSync(name + '.csv', lines.join('\n') + '\n')
}

async function main() {
  // hyparquet-writer is an ES module, found from the working directory.
  const path = require.resolve('hyparquet-writer', { paths: [process.cwd()] })
  const { parquetWriteFile, schemaFromColumnData } = await import(pathToFileURL(path).href)
  mixed(parquetWriteFile, schemaFromColumnData)
  regression(parquetWriteFile)
}

// mixed: one column of each supported type, an unsigned one among them,
// class labels as the target (in the middle), 120 rows in row groups of 50,
// 50 and 20, Snappy-compressed.
function mixed(parquetWriteFile, schemaFromColumnData) {
  const n = 120
  const r = rand(1)
  const labels = ['setosa', 'versicolor', 'virginica', 'Zebra', 'apple']
  const col = f => Array.from({ length: n }, (_, i) => f(i))
  const columns = [
    { name: 'x_double', type: 'DOUBLE', nullable: false, data: col(i =>
      i === 0 ? 1e300 : i === 1 ? -1e-300 : i === 2 ? Infinity : (r() - 0.5) * 1000) },
    { name: 'x_int32', type: 'INT32', nullable: false, data: col(i =>
      i === 0 ? 2147483647 : i === 1 ? -2147483648 : Math.floor((r() - 0.5) * 2e6)) },
    { name: 'target', type: 'STRING', nullable: false, data: col(() =>
      labels[Math.floor(r() * labels.length)]) },
    { name: 'x_int64', type: 'INT64', nullable: false, data: col(i =>
      i === 0 ? 9007199254740993n : i === 1 ? -9223372036854775808n : BigInt(Math.floor((r() - 0.5) * 1e15))) },
    { name: 'x_bool', type: 'BOOLEAN', nullable: false, data: col(() => r() < 0.4) },
    { name: 'x_optional', type: 'DOUBLE', data: col(() =>
      r() < 0.25 ? null : Math.round(r() * 1e6) / 1e3) },
    { name: 'x_float', type: 'FLOAT', nullable: false, data: col(() =>
      Math.fround((r() - 0.5) * 100)) },
    { name: 'x_level', type: 'DOUBLE', nullable: false, data: col(() =>
      [0.5, 1.5, 2.5][Math.floor(r() * 3)]) },
    { name: 'x_uint32', data: col(i => i === 0 ? 4294967295 : Math.floor(r() * 4294967296)) },
  ]
  // x_uint32 is an INT32 column annotated as unsigned (UINT_32): values
  // from 2^31 up are stored as negative int32s. A schema given whole takes
  // the place of the columns' types.
  const schema = schemaFromColumnData({
    columnData: columns,
    schemaOverrides: {
      x_uint32: { name: 'x_uint32', type: 'INT32', converted_type: 'UINT_32', repetition_type: 'REQUIRED' },
    },
  })
  write(parquetWriteFile, 'mixed', columns, { rowGroupSize: 50, schema })
}

// regression: a numeric target (last), an optional float feature with
// nulls, one row group, no compression.
function regression(parquetWriteFile) {
  const n = 60
  const r = rand(2)
  const col = f => Array.from({ length: n }, (_, i) => f(i))
  const f1 = col(() => r() * 10)
  const f2 = col(() => Math.floor(r() * 100))
  const columns = [
    { name: 'f1', type: 'DOUBLE', nullable: false, data: f1 },
    { name: 'f2', type: 'INT32', nullable: false, data: f2 },
    { name: 'f3', type: 'FLOAT', data: col(() => r() < 0.3 ? null : Math.fround(r())) },
    { name: 'target', type: 'DOUBLE', nullable: false, data: col(i => 3 * f1[i] - f2[i] / 7 + r()) },
  ]
  write(parquetWriteFile, 'regression', columns, { codec: 'UNCOMPRESSED' })
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
