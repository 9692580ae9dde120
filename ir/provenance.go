package ir

// SetParam records key = value among the parameters of m's provenance,
// creating the provenance and its parameters when m has none.
func (m *Model) SetParam(key, value string) {
	if m.Provenance == nil {
		m.Provenance = &Provenance{}
	}
	if m.Provenance.Params == nil {
		m.Provenance.Params = map[string]string{}
	}
	m.Provenance.Params[key] = value
}

// SetLink replaces the link of m by l, which then no longer predicts what
// the model it was made from predicts, and records the change in its
// provenance: link_in_file is the link it replaces, and link is l followed,
// when why is not empty, by why in parentheses. The model must still be
// valid (softmax needs several outputs): on error m keeps its link and its
// provenance.
func (m *Model) SetLink(l Link, why string) error {
	old := m.Link
	m.Link = l
	if err := m.Validate(); err != nil {
		m.Link = old
		return err
	}
	note := string(l)
	if why != "" {
		note += " (" + why + ")"
	}
	m.SetParam("link_in_file", string(old))
	m.SetParam("link", note)
	return nil
}
