module example.test/diskhealth

go 1.22
