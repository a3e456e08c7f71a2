package expenses

// SetBillingBatches makes the billing run's batches small (properties
// read at once, charges in one transaction) and calls after each
// committed transaction; an error of after stops the run there.
func SetBillingBatches(s *Service, properties, charges int, after func() error) {
	s.batch = batchKnobs{properties: properties, charges: charges, after: after}
}
